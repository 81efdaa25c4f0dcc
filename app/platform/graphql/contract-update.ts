// subscriptionContractUpdate: opens a draft of the contract; edits go to the draft until commit.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const CONTRACT_UPDATE = /* GraphQL */ `
  mutation ContractUpdate($contractId: ID!) {
    subscriptionContractUpdate(contractId: $contractId) {
      draft {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface ContractUpdateResult {
  subscriptionContractUpdate: { draft: { id: string } | null; userErrors: GqlUserError[] };
}

export function mapContractUpdate(r: ContractUpdateResult): string {
  const payload = r.subscriptionContractUpdate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.draft) throw new PlatformError("unavailable", "subscriptionContractUpdate returned no draft");
  return payload.draft.id;
}
