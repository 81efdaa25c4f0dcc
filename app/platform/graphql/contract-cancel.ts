// subscriptionContractCancel: a status change, mapped by mapStatusChange (./contract-fields.ts).
import { STATUS_CHANGE_FIELDS, type StatusChangePayload } from "./contract-fields";

export const CONTRACT_CANCEL = /* GraphQL */ `
  mutation ContractCancel($subscriptionContractId: ID!) {
    subscriptionContractCancel(subscriptionContractId: $subscriptionContractId) {
      ${STATUS_CHANGE_FIELDS}
    }
  }
`;

export interface ContractCancelResult {
  subscriptionContractCancel: StatusChangePayload;
}
