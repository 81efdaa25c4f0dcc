// subscriptionDraftLineUpdate: change quantity and/or variant of one line of a draft.
import { assertNoUserErrors, PlatformError } from "../errors";
import { LINE_FIELDS, type GqlLine, type GqlUserError } from "./contract-fields";

export const DRAFT_LINE_UPDATE = /* GraphQL */ `
  mutation DraftLineUpdate($draftId: ID!, $lineId: ID!, $input: SubscriptionLineUpdateInput!) {
    subscriptionDraftLineUpdate(draftId: $draftId, lineId: $lineId, input: $input) {
      lineUpdated { ${LINE_FIELDS} }
      userErrors { field message code }
    }
  }
`;

export interface LineChangeInput {
  quantity?: number;
  variantId?: string;
  customAttributes?: { key: string; value: string }[];
}

export interface DraftLineUpdateResult {
  subscriptionDraftLineUpdate: { lineUpdated: GqlLine | null; userErrors: GqlUserError[] };
}

export function draftLineUpdateVariables(draftId: string, lineId: string, change: LineChangeInput) {
  const input: Record<string, unknown> = {};
  if (change.quantity !== undefined) input.quantity = change.quantity;
  if (change.variantId !== undefined) input.productVariantId = change.variantId;
  // Replaces the line's whole attribute list (Shopify's SubscriptionLineUpdateInput.customAttributes).
  if (change.customAttributes !== undefined) input.customAttributes = change.customAttributes;
  return { draftId, lineId, input };
}

export function mapDraftLineUpdate(r: DraftLineUpdateResult): GqlLine {
  const payload = r.subscriptionDraftLineUpdate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.lineUpdated) throw new PlatformError("unavailable", "subscriptionDraftLineUpdate returned no line");
  return payload.lineUpdated;
}
