// nodes(ids) on Customer: the default e-mail address and its marketing consent as Shopify reports it
// (`defaultEmailAddress.marketingState`; `emailMarketingConsent` is deprecated in the targeted
// version). The win-back audience reads it (docs/decisions/115-winback-audience.md); nothing is stored.
import type { CustomerConsent, MarketingState } from "../port";

export const CUSTOMERS_CONSENT_MAX = 250;

export const CUSTOMERS_CONSENT = /* GraphQL */ `
  query CustomersConsent($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename
      ... on Customer {
        id
        defaultEmailAddress {
          emailAddress
          marketingState
        }
      }
    }
  }
`;

interface GqlConsent {
  __typename: "Customer";
  id: string;
  defaultEmailAddress: { emailAddress: string; marketingState: MarketingState } | null;
}

export interface CustomersConsentResult {
  nodes: (GqlConsent | { __typename: string } | null)[];
}

const isCustomer = (n: CustomersConsentResult["nodes"][number]): n is GqlConsent => n?.__typename === "Customer";

export const mapCustomersConsent = (r: CustomersConsentResult): CustomerConsent[] =>
  r.nodes.filter(isCustomer).map((c) => ({
    id: c.id,
    email: c.defaultEmailAddress?.emailAddress ?? null,
    marketingState: c.defaultEmailAddress?.marketingState ?? null,
  }));
