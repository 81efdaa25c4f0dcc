// subscriptionContractCancel: a status change. userErrors → PlatformError (see ../errors.ts).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { ContractStatus } from "../port";
import type { GqlUserError } from "./contract-fields";

export const CONTRACT_CANCEL = /* GraphQL */ `
  mutation ContractCancel($subscriptionContractId: ID!) {
    subscriptionContractCancel(subscriptionContractId: $subscriptionContractId) {
      contract { id status }
      userErrors { field message code }
    }
  }
`;

export interface ContractCancelResult {
  subscriptionContractCancel: { contract: { id: string; status: ContractStatus } | null; userErrors: GqlUserError[] };
}

export function mapContractCancel(r: ContractCancelResult): { id: string; status: ContractStatus } {
  const payload = r.subscriptionContractCancel;
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", "subscriptionContractCancel returned neither contract nor userErrors");
  return { id: payload.contract.id, status: payload.contract.status };
}
