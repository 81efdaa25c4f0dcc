// subscriptionBillingCycleSkip: skip one cycle chosen by index or by date.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const BILLING_CYCLE_SKIP = /* GraphQL */ `
  mutation BillingCycleSkip($billingCycleInput: SubscriptionBillingCycleInput!) {
    subscriptionBillingCycleSkip(billingCycleInput: $billingCycleInput) {
      billingCycle {
        cycleIndex
        skipped
        billingAttemptExpectedDate
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface BillingCycleSkipResult {
  subscriptionBillingCycleSkip: {
    billingCycle: { cycleIndex: number; skipped: boolean; billingAttemptExpectedDate: string } | null;
    userErrors: GqlUserError[];
  };
}

export function billingCycleSkipVariables(contractId: string, selector: { index?: number; date?: string }) {
  return { billingCycleInput: { contractId, selector } };
}

export function mapBillingCycleSkip(r: BillingCycleSkipResult) {
  const payload = r.subscriptionBillingCycleSkip;
  assertNoUserErrors(payload.userErrors);
  if (!payload.billingCycle) throw new PlatformError("unavailable", "subscriptionBillingCycleSkip returned no billing cycle");
  return payload.billingCycle;
}
