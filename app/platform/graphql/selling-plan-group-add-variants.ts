// sellingPlanGroupAddProductVariants: one of the four calls that change where a group is sold.
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const SELLING_PLAN_GROUP_ADD_VARIANTS = /* GraphQL */ `
  mutation SellingPlanGroupAddProductVariants($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupAddProductVariants(id: $id, productVariantIds: $ids) {
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

export interface SellingPlanGroupAddProductVariantsResult {
  sellingPlanGroupAddProductVariants: { sellingPlanGroup: { id: string } | null; userErrors: GqlUserError[] };
}

/** The ids added (as sent: Shopify answers the group, not the ids). */
export function mapSellingPlanGroupAddProductVariants(r: SellingPlanGroupAddProductVariantsResult, ids: string[]): string[] {
  const payload = r.sellingPlanGroupAddProductVariants;
  assertNoUserErrors(payload.userErrors);
  return ids;
}
