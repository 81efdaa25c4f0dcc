// sellingPlanGroupAddProducts: one of the four calls that change where a group is sold.
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const SELLING_PLAN_GROUP_ADD_PRODUCTS = /* GraphQL */ `
  mutation SellingPlanGroupAddProducts($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupAddProducts(id: $id, productIds: $ids) {
      sellingPlanGroup {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface SellingPlanGroupAddProductsResult {
  sellingPlanGroupAddProducts: { sellingPlanGroup: { id: string } | null; userErrors: GqlUserError[] };
}

/** The ids added (as sent: Shopify answers the group, not the ids). */
export function mapSellingPlanGroupAddProducts(r: SellingPlanGroupAddProductsResult, ids: string[]): string[] {
  const payload = r.sellingPlanGroupAddProducts;
  assertNoUserErrors(payload.userErrors);
  return ids;
}
