// What a win-back needs to clone a cancelled contract with subscriptionContractAtomicCreate: its
// lines and plan, policies, customer, vaulted payment method and shipping address
// (docs/decisions/117-winback-campaign-job.md). Null when unknown or another app's.
import type { CloneSource, PlatformAddress } from "../port";
import { CONTRACT_FIELDS, mapContract, type GqlContract } from "./contract-fields";

export const CONTRACT_CLONE_SOURCE = /* GraphQL */ `
  query ContractCloneSource($id: ID!) {
    subscriptionContract(id: $id) {
      ${CONTRACT_FIELDS}
      deliveryPolicy { interval intervalCount }
      customerPaymentMethod { id }
      deliveryMethod {
        __typename
        ... on SubscriptionDeliveryMethodShipping {
          address {
            firstName
            lastName
            company
            address1
            address2
            city
            province
            provinceCode
            zip
            country
            countryCodeV2
            phone
          }
        }
      }
    }
  }
`;

interface GqlShippingAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string | null;
  phone: string | null;
}

export interface ContractCloneSourceResult {
  subscriptionContract:
    | (GqlContract & {
        deliveryPolicy: { interval: string; intervalCount: number };
        customerPaymentMethod: { id: string } | null;
        deliveryMethod: { __typename: string; address?: GqlShippingAddress } | null;
      })
    | null;
}

const addressOf = ({ countryCodeV2, ...a }: GqlShippingAddress): PlatformAddress => ({ ...a, countryCode: countryCodeV2 });

export function mapContractCloneSource(r: ContractCloneSourceResult): CloneSource | null {
  const c = r.subscriptionContract;
  if (!c) return null;
  return {
    contract: mapContract(c),
    paymentMethodId: c.customerPaymentMethod?.id ?? null,
    shippingAddress: c.deliveryMethod?.address ? addressOf(c.deliveryMethod.address) : null,
  };
}
