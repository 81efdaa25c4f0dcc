// The whole-shop contract read as one bulk query (docs/decisions/097-bulk-reads.md): the same
// contract and line fields as every other contract read, the lines as a nested connection, so
// the JSONL result holds one line per contract followed by one per line with `__parentId`.
import { CONTRACT_OWN_FIELDS, LINE_FIELDS, mapContract, type GqlContract, type GqlLine } from "./contract-fields";
import type { PlatformContract } from "../port";

export const CONTRACTS_BULK_QUERY = /* GraphQL */ `
  query ContractsBulk {
    subscriptionContracts {
      edges {
        node {
          ${CONTRACT_OWN_FIELDS}
          lines {
            edges {
              node { ${LINE_FIELDS} }
            }
          }
        }
      }
    }
  }
`;

type Row = Record<string, unknown> & { id?: string; __parentId?: string };

/**
 * Folds the JSONL rows of one contract (its own row, then its lines' rows) into a contract.
 * `rows[0]` is the contract; the rest carry its id as `__parentId`.
 */
export function contractFromBulkRows(rows: Row[]): PlatformContract {
  const [root, ...children] = rows;
  const lines = children.filter((r) => r.__parentId === root.id).map((r) => r as unknown as GqlLine);
  return mapContract({ ...(root as unknown as Omit<GqlContract, "lines">), lines: { nodes: lines } });
}
