// subscriptionContractPause: a status change, mapped by mapStatusChange (./contract-fields.ts).
import { STATUS_CHANGE_FIELDS, type StatusChangePayload } from "./contract-fields";

export const CONTRACT_PAUSE = /* GraphQL */ `
  mutation ContractPause($subscriptionContractId: ID!) {
    subscriptionContractPause(subscriptionContractId: $subscriptionContractId) {
      ${STATUS_CHANGE_FIELDS}
    }
  }
`;

export interface ContractPauseResult {
  subscriptionContractPause: StatusChangePayload;
}
