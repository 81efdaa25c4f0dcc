// subscriptionContractCancel: a status change, mapped by mapStatusChange (./contract-fields.ts).
import type { StatusChangePayload } from "./contract-fields";

export const CONTRACT_CANCEL = /* GraphQL */ `
  mutation ContractCancel($subscriptionContractId: ID!) {
    subscriptionContractCancel(subscriptionContractId: $subscriptionContractId) {
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

export interface ContractCancelResult {
  subscriptionContractCancel: StatusChangePayload;
}
