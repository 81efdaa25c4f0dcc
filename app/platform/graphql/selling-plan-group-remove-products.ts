// sellingPlanGroupRemoveProducts: one of the four calls that change where a group is sold.
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const SELLING_PLAN_GROUP_REMOVE_PRODUCTS = /* GraphQL */ `
  mutation SellingPlanGroupRemoveProducts($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupRemoveProducts(id: $id, productIds: $ids) {
      removedProductIds
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface SellingPlanGroupRemoveProductsResult {
  sellingPlanGroupRemoveProducts: { removedProductIds: string[] | null; userErrors: GqlUserError[] };
}

/** The ids Shopify removed. */
export function mapSellingPlanGroupRemoveProducts(r: SellingPlanGroupRemoveProductsResult): string[] {
  const payload = r.sellingPlanGroupRemoveProducts;
  assertNoUserErrors(payload.userErrors);
  return payload.removedProductIds ?? [];
}
