// nodes(ids) on Customer: the identity and default (shipping) address the migration export
// carries (docs/decisions/056-export-datasets.md). E-mail and phone are read from defaultEmailAddress /
// defaultPhoneNumber: Customer.email and Customer.phone are deprecated in the targeted version.
import type { PlatformCustomer } from "../port";
import { ADDRESS_FIELDS, mapAddress, type GqlAddress } from "./contract-fields";

export const CUSTOMERS_GET = /* GraphQL */ `
  query CustomersGet($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      ... on Customer {
        id
        firstName
        lastName
        defaultEmailAddress {
          emailAddress
        }
        defaultPhoneNumber {
          phoneNumber
        }
        defaultAddress { ${ADDRESS_FIELDS} }
      }
    }
  }
`;

interface GqlCustomer {
  __typename: "Customer";
  id: string;
  firstName: string | null;
  lastName: string | null;
  defaultEmailAddress: { emailAddress: string | null } | null;
  defaultPhoneNumber: { phoneNumber: string } | null;
  defaultAddress: GqlAddress | null;
}

export interface CustomersGetResult {
  nodes: (GqlCustomer | { __typename: string } | null)[];
}

const isCustomer = (n: CustomersGetResult["nodes"][number]): n is GqlCustomer => n?.__typename === "Customer";

export const mapCustomersGet = (r: CustomersGetResult): PlatformCustomer[] =>
  r.nodes.filter(isCustomer).map((c) => ({
    id: c.id,
    email: c.defaultEmailAddress?.emailAddress ?? null,
    firstName: c.firstName,
    lastName: c.lastName,
    phone: c.defaultPhoneNumber?.phoneNumber ?? null,
    shippingAddress: c.defaultAddress ? mapAddress(c.defaultAddress) : null,
  }));
