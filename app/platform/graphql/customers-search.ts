// customers(query:): the admin's search of a subscriber by name or e-mail (the mirror holds no
// names: they are read from Shopify when a merchant asks, docs/decisions/134-customer-names-live.md).
// A bare term is Shopify's default search (names, e-mail); `email:` is the address exactly.
import type { CustomerName } from "../port";

/** Customers per search: the page shows the subscriptions of at most this many matches. */
export const CUSTOMERS_SEARCH_MAX = 50;

export const CUSTOMERS_SEARCH = /* GraphQL */ `
  query CustomersSearch($query: String!, $first: Int!) {
    customers(first: $first, query: $query) {
      nodes {
        id
        firstName
        lastName
        defaultEmailAddress {
          emailAddress
        }
      }
    }
  }
`;

export interface CustomersSearchResult {
  customers: { nodes: { id: string; firstName: string | null; lastName: string | null; defaultEmailAddress: { emailAddress: string | null } | null }[] };
}

export const mapCustomersSearch = (r: CustomersSearchResult): CustomerName[] =>
  r.customers.nodes.map((c) => ({ id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.defaultEmailAddress?.emailAddress ?? null }));
