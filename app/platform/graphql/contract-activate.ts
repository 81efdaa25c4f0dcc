// subscriptionContractActivate: a status change, mapped by mapStatusChange (./contract-fields.ts).
import type { StatusChangePayload } from "./contract-fields";

export const CONTRACT_ACTIVATE = /* GraphQL */ `
  mutation ContractActivate($subscriptionContractId: ID!) {
    subscriptionContractActivate(subscriptionContractId: $subscriptionContractId) {
      contract {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface ContractActivateResult {
  subscriptionContractActivate: StatusChangePayload;
}
