// subscriptionContractPause: a status change. userErrors → PlatformError (see ../errors.ts).
import { assertNoUserErrors, PlatformError } from "../errors";
import type { ContractStatus } from "../port";
import type { GqlUserError } from "./contract-fields";

export const CONTRACT_PAUSE = /* GraphQL */ `
  mutation ContractPause($subscriptionContractId: ID!) {
    subscriptionContractPause(subscriptionContractId: $subscriptionContractId) {
      contract { id status }
      userErrors { field message code }
    }
  }
`;

export interface ContractPauseResult {
  subscriptionContractPause: { contract: { id: string; status: ContractStatus } | null; userErrors: GqlUserError[] };
}

export function mapContractPause(r: ContractPauseResult): { id: string; status: ContractStatus } {
  const payload = r.subscriptionContractPause;
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", "subscriptionContractPause returned neither contract nor userErrors");
  return { id: payload.contract.id, status: payload.contract.status };
}
