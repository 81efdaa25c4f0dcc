// subscriptionContracts(first, after): the app's own contracts, paged for reconciliation.
import { CONTRACT_FIELDS, mapContract, type GqlContract } from "./contract-fields";
import type { ContractPage } from "../port";

export const CONTRACTS_LIST = /* GraphQL */ `
  query ContractsList($first: Int!, $after: String) {
    subscriptionContracts(first: $first, after: $after) {
      nodes { ${CONTRACT_FIELDS} }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

/**
 * The most contracts one page may ask for: each costs 160 points requested (its 50 lines 3 each),
 * so 6 (962 points) stay under Shopify's 1,000-point single-query maximum
 * (docs/decisions/095-simulated-query-cost.md). A larger `first` would be refused outright.
 */
export const CONTRACTS_LIST_MAX = 6;

export interface ContractsListResult {
  subscriptionContracts: { nodes: GqlContract[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

export const mapContractsList = (r: ContractsListResult): ContractPage => ({
  nodes: r.subscriptionContracts.nodes.map(mapContract),
  endCursor: r.subscriptionContracts.pageInfo.endCursor,
  hasNextPage: r.subscriptionContracts.pageInfo.hasNextPage,
});
