// subscriptionDraftUpdate: changes a draft's contract-level fields. The app sets one: the shipping
// address of the delivery method (a gift's recipient gives it when claiming,
// docs/decisions/136-gift-lifecycle.md; a subscriber edits it in the hosted portal,
// docs/decisions/155-portal-delivery-address.md). MailingAddressInput takes ISO codes (countryCode,
// provinceCode): the names `country` and `province` are deprecated in the targeted version.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { ShippingAddressInput } from "../port";
import type { GqlUserError } from "./contract-fields";

export const DRAFT_UPDATE = /* GraphQL */ `
  mutation DraftUpdate($draftId: ID!, $input: SubscriptionDraftInput!) {
    subscriptionDraftUpdate(draftId: $draftId, input: $input) {
      draft {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface DraftUpdateResult {
  subscriptionDraftUpdate: { draft: { id: string } | null; userErrors: GqlUserError[] };
}

export function draftShippingVariables(draftId: string, a: ShippingAddressInput) {
  const address: Record<string, string> = {
    address1: a.address1,
    city: a.city,
    countryCode: a.countryCode,
    zip: a.zip,
  };
  if (a.firstName) address.firstName = a.firstName;
  if (a.lastName) address.lastName = a.lastName;
  if (a.address2) address.address2 = a.address2;
  if (a.provinceCode) address.provinceCode = a.provinceCode;
  return { draftId, input: { deliveryMethod: { shipping: { address } } } };
}

export function mapDraftUpdate(r: DraftUpdateResult): string {
  const payload = r.subscriptionDraftUpdate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.draft) throw new PlatformError("unavailable", "subscriptionDraftUpdate returned no draft");
  return payload.draft.id;
}
