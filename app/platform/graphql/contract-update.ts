// subscriptionContractUpdate: opens a draft of the contract; edits go to the draft until commit.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { PlatformLine } from "../port";
import { LINE_FIELDS, mapLine, type GqlLine, type GqlUserError } from "./contract-fields";

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

// The same mutation, reading the draft's lines in the answer: an edit that picks its line by what
// the line holds (the box line, by its selling plan) needs no contract read before it
// (docs/decisions/108-box-cutoff-throughput.md).
export const CONTRACT_UPDATE_WITH_LINES = /* GraphQL */ `
  mutation ContractUpdateWithLines($contractId: ID!) {
    subscriptionContractUpdate(contractId: $contractId) {
      draft {
        id
        lines(first: 50) { nodes { ${LINE_FIELDS} } }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface ContractUpdateWithLinesResult {
  subscriptionContractUpdate: { draft: { id: string; lines: { nodes: GqlLine[] } } | null; userErrors: GqlUserError[] };
}

export function mapContractUpdateWithLines(r: ContractUpdateWithLinesResult): { draftId: string; lines: PlatformLine[] } {
  const payload = r.subscriptionContractUpdate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.draft) throw new PlatformError("unavailable", "subscriptionContractUpdate returned no draft");
  return { draftId: payload.draft.id, lines: payload.draft.lines.nodes.map(mapLine) };
}
