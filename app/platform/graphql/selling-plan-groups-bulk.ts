// The app's selling plan groups as one bulk query (docs/decisions/164-storefront-bulk-read.md): what
// the storefront sync reads of each group (its plans, the variants it is sold on and their
// products), the same fields SELLING_PLAN_GROUP_GET and VARIANTS_GET give the paged read, with no
// first: 250 cap on variants. `sellingPlanGroups` answers the requesting app's groups only (Shopify's
// default app_id:CURRENT). In the JSONL, each group's row is followed by its plans' and variants'
// rows, which carry the group's id as `__parentId`.
import type { BulkRow } from "../bulk-results.server";

export const SELLING_PLAN_GROUPS_BULK_QUERY = /* GraphQL */ `
  query SellingPlanGroupsBulk {
    sellingPlanGroups {
      edges {
        node {
          id
          sellingPlans {
            edges {
              node {
                id
                name
              }
            }
          }
          productVariants {
            edges {
              node {
                id
                product {
                  id
                }
              }
            }
          }
        }
      }
    }
  }
`;

export interface BulkSellingPlanGroup {
  groupId: string;
  /** In the platform's order; the first is the one a single-plan form offers. */
  sellingPlans: { id: string; name: string }[];
  /** Every variant the group is sold on, with its product. */
  variants: { id: string; productId: string }[];
}

/** Folds one group's rows (its own row, then its plans' and variants' rows) into a group. */
export function sellingPlanGroupFromBulkRows(rows: BulkRow[]): BulkSellingPlanGroup {
  const [root, ...children] = rows;
  const group: BulkSellingPlanGroup = { groupId: String(root.id), sellingPlans: [], variants: [] };
  for (const row of children) {
    if (row.__parentId !== root.id) continue;
    const id = String(row.id);
    // A nested row is told by what it carries: a variant has its product, a plan its name.
    const product = row.product as { id: string } | undefined;
    if (product) group.variants.push({ id, productId: product.id });
    else group.sellingPlans.push({ id, name: String(row.name) });
  }
  return group;
}
