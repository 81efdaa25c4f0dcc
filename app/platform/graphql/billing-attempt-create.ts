// subscriptionBillingAttemptCreate: charge a contract's due billing cycle. The idempotency key
// makes a repeated request answer the attempt already made (never a second charge); the outcome
// arrives later by the subscription_billing_attempts/* webhooks (docs/decisions/080).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const BILLING_ATTEMPT_CREATE = /* GraphQL */ `
  mutation BillingAttemptCreate($subscriptionContractId: ID!, $subscriptionBillingAttemptInput: SubscriptionBillingAttemptInput!) {
    subscriptionBillingAttemptCreate(subscriptionContractId: $subscriptionContractId, subscriptionBillingAttemptInput: $subscriptionBillingAttemptInput) {
      subscriptionBillingAttempt {
        id
        idempotencyKey
        createdAt
        state {
          __typename
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface BillingAttemptCreateResult {
  subscriptionBillingAttemptCreate: {
    subscriptionBillingAttempt: { id: string; idempotencyKey: string; createdAt: string; state: { __typename: string } } | null;
    userErrors: GqlUserError[];
  };
}

export interface BillingAttemptRequest {
  idempotencyKey: string;
  /** The due date being charged: selects the billing cycle and keeps fulfilment on schedule. */
  cycleDate: string;
}

export function billingAttemptCreateVariables(contractId: string, request: BillingAttemptRequest) {
  return {
    subscriptionContractId: contractId,
    subscriptionBillingAttemptInput: {
      idempotencyKey: request.idempotencyKey,
      originTime: request.cycleDate,
      billingCycleSelector: { date: request.cycleDate },
    },
  };
}

const STATES: Record<string, "pending" | "succeeded" | "failed" | "challenged"> = {
  SubscriptionBillingAttemptPendingState: "pending",
  SubscriptionBillingAttemptSuccessState: "succeeded",
  SubscriptionBillingAttemptFailedState: "failed",
  SubscriptionBillingAttemptActionRequiredState: "challenged",
};

/** The attempt's state from the `state` union's type name (anything new reads as still pending). */
export const attemptState = (typename: string) => STATES[typename] ?? "pending";

export function mapBillingAttemptCreate(r: BillingAttemptCreateResult) {
  const payload = r.subscriptionBillingAttemptCreate;
  assertNoUserErrors(payload.userErrors);
  const attempt = payload.subscriptionBillingAttempt;
  if (!attempt) throw new PlatformError("unavailable", "subscriptionBillingAttemptCreate returned no billing attempt");
  return { id: attempt.id, idempotencyKey: attempt.idempotencyKey, createdAt: attempt.createdAt, state: attemptState(attempt.state.__typename) };
}
