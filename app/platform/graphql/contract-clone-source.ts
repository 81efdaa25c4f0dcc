// What a win-back needs to clone a cancelled contract with subscriptionContractAtomicCreate: its
// lines and plan, policies, customer, vaulted payment method and shipping address
// (docs/decisions/117-winback-campaign-job.md). Null when unknown or another app's.
import type { CloneSource } from "../port";
import { CONTRACT_FIELDS, DELIVERY_METHOD_FIELDS, mapContract, mapDeliveryAddress, type GqlContract, type GqlDeliveryMethod } from "./contract-fields";

export const CONTRACT_CLONE_SOURCE = /* GraphQL */ `
  query ContractCloneSource($id: ID!) {
    subscriptionContract(id: $id) {
      ${CONTRACT_FIELDS}
      deliveryPolicy { interval intervalCount }
      customerPaymentMethod { id }
      ${DELIVERY_METHOD_FIELDS}
    }
  }
`;

export interface ContractCloneSourceResult {
  subscriptionContract:
    | (GqlContract & {
        deliveryPolicy: { interval: string; intervalCount: number };
        customerPaymentMethod: { id: string } | null;
        deliveryMethod: GqlDeliveryMethod;
      })
    | null;
}

export function mapContractCloneSource(r: ContractCloneSourceResult): CloneSource | null {
  const c = r.subscriptionContract;
  if (!c) return null;
  return {
    contract: mapContract(c),
    paymentMethodId: c.customerPaymentMethod?.id ?? null,
    shippingAddress: mapDeliveryAddress(c.deliveryMethod),
  };
}
