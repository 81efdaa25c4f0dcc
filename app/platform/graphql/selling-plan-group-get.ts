// sellingPlanGroup(id) with its plans and the variants it is sold on: what a plan group offers
// (the child selling plan ids a cart line carries) and where (the storefront metafields are
// written on those variants' products; docs/decisions/066-storefront-metafields.md).
import type { PlatformSellingPlanGroup } from "../port";

export const SELLING_PLAN_GROUP_GET = /* GraphQL */ `
  query SellingPlanGroupGet($id: ID!) {
    sellingPlanGroup(id: $id) {
      id
      sellingPlans(first: 50) {
        nodes {
          id
          name
        }
      }
      productVariants(first: 250) {
        nodes {
          id
        }
      }
    }
  }
`;

export interface SellingPlanGroupGetResult {
  sellingPlanGroup: {
    id: string;
    sellingPlans: { nodes: { id: string; name: string }[] };
    productVariants: { nodes: { id: string }[] };
  } | null;
}

export const mapSellingPlanGroupGet = (r: SellingPlanGroupGetResult): PlatformSellingPlanGroup | null =>
  r.sellingPlanGroup
    ? {
        groupId: r.sellingPlanGroup.id,
        sellingPlans: r.sellingPlanGroup.sellingPlans.nodes.map((p) => ({ id: p.id, name: p.name })),
        variantIds: r.sellingPlanGroup.productVariants.nodes.map((v) => v.id),
      }
    : null;
