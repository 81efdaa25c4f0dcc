// A contract's owner, status and shipping address: what the hosted portal's address form needs to
// check the shopper owns the contract and to prefill the form, in one small read
// (docs/decisions/155-portal-delivery-address.md). Null when unknown or another app's.
import type { ContractDelivery, ContractStatus } from "../port";
import { DELIVERY_METHOD_FIELDS, mapDeliveryAddress, type GqlDeliveryMethod } from "./contract-fields";

export const CONTRACT_DELIVERY_ADDRESS = /* GraphQL */ `
  query ContractDeliveryAddress($id: ID!) {
    subscriptionContract(id: $id) {
      id
      status
      customer { id }
      ${DELIVERY_METHOD_FIELDS}
    }
  }
`;

export interface ContractDeliveryAddressResult {
  subscriptionContract: { id: string; status: ContractStatus; customer: { id: string } | null; deliveryMethod: GqlDeliveryMethod } | null;
}

export function mapContractDeliveryAddress(r: ContractDeliveryAddressResult): ContractDelivery | null {
  const c = r.subscriptionContract;
  if (!c) return null;
  return { id: c.id, status: c.status, customerId: c.customer?.id ?? null, address: mapDeliveryAddress(c.deliveryMethod) };
}
