// product(id).sellingPlanGroups: every plan a product can be bought on, with the child selling
// plans a cart line carries (the Storefront API's GET /products/{product_id}/plans).
// 20 groups of at most 31 plans (Shopify's cap per group) cost 683 points: under the 1,000-point
// single-query maximum that 50 x 50 (2,653) broke (docs/decisions/095-simulated-query-cost.md).
import type { PlatformProductPlans } from "../port";

export const PRODUCT_SELLING_PLAN_GROUPS = /* GraphQL */ `
  query ProductSellingPlanGroups($id: ID!) {
    product(id: $id) {
      id
      sellingPlanGroups(first: 20) {
        nodes {
          id
          sellingPlans(first: 31) {
            nodes {
              id
              name
            }
          }
        }
      }
    }
  }
`;

export interface ProductSellingPlanGroupsResult {
  product: {
    id: string;
    sellingPlanGroups: { nodes: { id: string; sellingPlans: { nodes: { id: string; name: string }[] } }[] };
  } | null;
}

export const mapProductSellingPlanGroups = (r: ProductSellingPlanGroupsResult): PlatformProductPlans | null =>
  r.product
    ? {
        productId: r.product.id,
        groups: r.product.sellingPlanGroups.nodes.map((g) => ({ groupId: g.id, sellingPlans: g.sellingPlans.nodes.map((p) => ({ id: p.id, name: p.name })) })),
      }
    : null;
