// subscriptionContractActivate: a status change. userErrors → PlatformError (see ../errors.ts).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { ContractStatus } from "../port";
import type { GqlUserError } from "./contract-fields";

export const CONTRACT_ACTIVATE = /* GraphQL */ `
  mutation ContractActivate($subscriptionContractId: ID!) {
    subscriptionContractActivate(subscriptionContractId: $subscriptionContractId) {
      contract { id status }
      userErrors { field message code }
    }
  }
`;

export interface ContractActivateResult {
  subscriptionContractActivate: { contract: { id: string; status: ContractStatus } | null; userErrors: GqlUserError[] };
}

export function mapContractActivate(r: ContractActivateResult): { id: string; status: ContractStatus } {
  const payload = r.subscriptionContractActivate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", "subscriptionContractActivate returned neither contract nor userErrors");
  return { id: payload.contract.id, status: payload.contract.status };
}
