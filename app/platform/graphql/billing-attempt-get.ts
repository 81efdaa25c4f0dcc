// subscriptionBillingAttempt: one billing attempt's state, read when its outcome webhook is
// overdue (docs/decisions/080: the engine settles an attempt from this read as it would from the
// webhook). `state` is the union Shopify answers with since the flat fields were deprecated; each
// error kind has its own code enum, hence one alias per kind.
import type { PlatformBillingAttemptOutcome } from "../port";
import { attemptState } from "./billing-attempt-create";

export const BILLING_ATTEMPT_GET = /* GraphQL */ `
  query BillingAttemptGet($id: ID!) {
    subscriptionBillingAttempt(id: $id) {
      id
      idempotencyKey
      subscriptionContract {
        id
      }
      state {
        __typename
        ... on SubscriptionBillingAttemptSuccessState {
          order {
            id
          }
        }
        ... on SubscriptionBillingAttemptFailedState {
          error {
            __typename
            ... on SubscriptionBillingAttemptPaymentError {
              paymentCode: code
            }
            ... on SubscriptionBillingAttemptGeneralError {
              generalCode: code
            }
            ... on SubscriptionBillingAttemptInventoryError {
              inventoryCode: code
            }
          }
        }
      }
    }
  }
`;

type State =
  | { __typename: "SubscriptionBillingAttemptSuccessState"; order: { id: string } | null }
  | { __typename: "SubscriptionBillingAttemptFailedState"; error: { __typename: string; paymentCode?: string; generalCode?: string; inventoryCode?: string } }
  | { __typename: string };

export interface BillingAttemptGetResult {
  subscriptionBillingAttempt: { id: string; idempotencyKey: string; subscriptionContract: { id: string }; state: State } | null;
}

/** The error's code (an unexpected error has none: its type name stands in). */
const errorCode = (e: { __typename: string; paymentCode?: string; generalCode?: string; inventoryCode?: string }) =>
  e.paymentCode ?? e.generalCode ?? e.inventoryCode ?? e.__typename;

export function mapBillingAttemptGet(r: BillingAttemptGetResult): PlatformBillingAttemptOutcome | null {
  const a = r.subscriptionBillingAttempt;
  if (!a) return null;
  const state = a.state;
  return {
    id: a.id,
    idempotencyKey: a.idempotencyKey,
    contractId: a.subscriptionContract.id,
    state: attemptState(state.__typename),
    orderId: "order" in state ? (state.order?.id ?? null) : null,
    errorCode: "error" in state ? errorCode(state.error) : null,
  };
}
