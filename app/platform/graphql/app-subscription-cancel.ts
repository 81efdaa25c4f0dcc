// appSubscriptionCancel: ends the app's recurring charge (downgrade to Free).
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const APP_SUBSCRIPTION_CANCEL = /* GraphQL */ `
  mutation AppSubscriptionCancel($id: ID!) {
    appSubscriptionCancel(id: $id) {
      appSubscription {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export interface AppSubscriptionCancelResult {
  appSubscriptionCancel: {
    appSubscription: { id: string; status: string } | null;
    userErrors: GqlUserError[];
  };
}

export function mapAppSubscriptionCancel(r: AppSubscriptionCancelResult): void {
  assertNoUserErrors(r.appSubscriptionCancel.userErrors);
}
