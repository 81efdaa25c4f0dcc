// subscriptionContractSetNextBillingDate: move the next charge; Shopify refuses past dates.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const CONTRACT_SET_NEXT_BILLING_DATE = /* GraphQL */ `
  mutation ContractSetNextBillingDate($contractId: ID!, $date: DateTime!) {
    subscriptionContractSetNextBillingDate(contractId: $contractId, date: $date) {
      contract {
        id
        nextBillingDate
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface ContractSetNextBillingDateResult {
  subscriptionContractSetNextBillingDate: {
    contract: { id: string; nextBillingDate: string } | null;
    userErrors: GqlUserError[];
  };
}

export function mapContractSetNextBillingDate(r: ContractSetNextBillingDateResult) {
  const payload = r.subscriptionContractSetNextBillingDate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", "subscriptionContractSetNextBillingDate returned no contract");
  return { id: payload.contract.id, nextBillingDate: payload.contract.nextBillingDate };
}
