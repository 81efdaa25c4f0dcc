// subscriptionDraftCommit: applies the draft to the contract (one new revision).
import { assertNoUserErrors, PlatformError } from "../errors";
import { CONTRACT_FIELDS, mapContract, type GqlContract, type GqlUserError } from "./contract-fields";
import type { PlatformContract } from "../port";

export const DRAFT_COMMIT = /* GraphQL */ `
  mutation DraftCommit($draftId: ID!) {
    subscriptionDraftCommit(draftId: $draftId) {
      contract { ${CONTRACT_FIELDS} }
      userErrors { field message code }
    }
  }
`;

export interface DraftCommitResult {
  subscriptionDraftCommit: { contract: GqlContract | null; userErrors: GqlUserError[] };
}

export function mapDraftCommit(r: DraftCommitResult): PlatformContract {
  const payload = r.subscriptionDraftCommit;
  assertNoUserErrors(payload.userErrors);
  if (!payload.contract) throw new PlatformError("unavailable", "subscriptionDraftCommit returned no contract");
  return mapContract(payload.contract);
}
