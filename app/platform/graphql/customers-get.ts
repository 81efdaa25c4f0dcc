// nodes(ids) on Customer: the identity and default (shipping) address the migration export
// carries (docs/decisions/056-export-datasets.md). E-mail and phone are read from defaultEmailAddress /
// defaultPhoneNumber: Customer.email and Customer.phone are deprecated in the targeted version.
import type { PlatformCustomer } from "../port";

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
        defaultAddress {
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
`;

interface GqlAddress {
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
    shippingAddress: c.defaultAddress
      ? {
          firstName: c.defaultAddress.firstName,
          lastName: c.defaultAddress.lastName,
          company: c.defaultAddress.company,
          address1: c.defaultAddress.address1,
          address2: c.defaultAddress.address2,
          city: c.defaultAddress.city,
          province: c.defaultAddress.province,
          provinceCode: c.defaultAddress.provinceCode,
          zip: c.defaultAddress.zip,
          country: c.defaultAddress.country,
          countryCode: c.defaultAddress.countryCodeV2,
          phone: c.defaultAddress.phone,
        }
      : null,
  }));
