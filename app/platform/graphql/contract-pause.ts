// subscriptionContractPause: a status change, mapped by mapStatusChange (./contract-fields.ts).
import type { StatusChangePayload } from "./contract-fields";

export const CONTRACT_PAUSE = /* GraphQL */ `
  mutation ContractPause($subscriptionContractId: ID!) {
    subscriptionContractPause(subscriptionContractId: $subscriptionContractId) {
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

export interface ContractPauseResult {
  subscriptionContractPause: StatusChangePayload;
}
