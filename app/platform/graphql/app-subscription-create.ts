// appSubscriptionCreate: asks Shopify Billing for a recurring app charge; the merchant approves it
// at confirmationUrl (docs/decisions/064-billing.md). A charge replaces the app's current one at
// once (APPLY_IMMEDIATELY), so upgrading never leaves two live charges.
import { assertNoUserErrors } from "../errors";
import type { AppChargeRequest, AppChargeCreated } from "../port";
import type { GqlUserError } from "./contract-fields";

export const APP_SUBSCRIPTION_CREATE = /* GraphQL */ `
  mutation AppSubscriptionCreate($name: String!, $returnUrl: URL!, $test: Boolean, $lineItems: [AppSubscriptionLineItemInput!]!) {
    appSubscriptionCreate(name: $name, returnUrl: $returnUrl, test: $test, lineItems: $lineItems, replacementBehavior: APPLY_IMMEDIATELY) {
      appSubscription {
        id
        status
      }
      confirmationUrl
      userErrors {
        field
        message
      }
    }
  }
`;

export interface AppSubscriptionCreateResult {
  appSubscriptionCreate: {
    appSubscription: { id: string; status: string } | null;
    confirmationUrl: string | null;
    userErrors: GqlUserError[];
  };
}

export const appSubscriptionCreateVariables = (r: AppChargeRequest) => ({
  name: r.name,
  returnUrl: r.returnUrl,
  test: r.test,
  lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: r.amount, currencyCode: r.currencyCode }, interval: r.interval } } }],
});

export function mapAppSubscriptionCreate(r: AppSubscriptionCreateResult): AppChargeCreated {
  assertNoUserErrors(r.appSubscriptionCreate.userErrors);
  return { id: r.appSubscriptionCreate.appSubscription!.id, confirmationUrl: r.appSubscriptionCreate.confirmationUrl! };
}
