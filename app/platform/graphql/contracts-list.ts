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

export interface ContractsListResult {
  subscriptionContracts: { nodes: GqlContract[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

export const mapContractsList = (r: ContractsListResult): ContractPage => ({
  nodes: r.subscriptionContracts.nodes.map(mapContract),
  endCursor: r.subscriptionContracts.pageInfo.endCursor,
  hasNextPage: r.subscriptionContracts.pageInfo.hasNextPage,
});
