// subscriptionContract(id): null when unknown, or when another app owns it (read_own_* scope).
import { CONTRACT_FIELDS, mapContract, type GqlContract } from "./contract-fields";
import type { PlatformContract } from "../port";

export const CONTRACT_GET = /* GraphQL */ `
  query ContractGet($id: ID!) {
    subscriptionContract(id: $id) { ${CONTRACT_FIELDS} }
  }
`;

export interface ContractGetResult {
  subscriptionContract: GqlContract | null;
}

export const mapContractGet = (r: ContractGetResult): PlatformContract | null => (r.subscriptionContract ? mapContract(r.subscriptionContract) : null);
