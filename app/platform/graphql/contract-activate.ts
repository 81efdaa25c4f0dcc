// subscriptionContractActivate: a status change, mapped by mapStatusChange (./contract-fields.ts).
import { STATUS_CHANGE_FIELDS, type StatusChangePayload } from "./contract-fields";

export const CONTRACT_ACTIVATE = /* GraphQL */ `
  mutation ContractActivate($subscriptionContractId: ID!) {
    subscriptionContractActivate(subscriptionContractId: $subscriptionContractId) {
      ${STATUS_CHANGE_FIELDS}
    }
  }
`;

export interface ContractActivateResult {
  subscriptionContractActivate: StatusChangePayload;
}
