// A customer's contracts (this app's only) with their custom attributes: how the migration
// import finds a contract it created before a crash kept it from recording the id.
export const CUSTOMER_CONTRACTS = /* GraphQL */ `
  query CustomerContracts($id: ID!, $after: String) {
    customer(id: $id) {
      subscriptionContracts(first: 100, after: $after) {
        nodes {
          id
          customAttributes {
            key
            value
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

export interface CustomerContractsResult {
  customer: {
    subscriptionContracts: {
      nodes: { id: string; customAttributes: { key: string; value: string | null }[] }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}

export function mapCustomerContracts(r: CustomerContractsResult) {
  const page = r.customer?.subscriptionContracts;
  return {
    contracts: (page?.nodes ?? []).map((n) => ({ id: n.id, attributes: Object.fromEntries(n.customAttributes.map((a) => [a.key, a.value ?? ""])) })),
    endCursor: page?.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
  };
}
