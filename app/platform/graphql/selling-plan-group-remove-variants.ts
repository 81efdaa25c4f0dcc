// sellingPlanGroupRemoveProductVariants: one of the four calls that change where a group is sold.
import { assertNoUserErrors } from "../errors";
import type { GqlUserError } from "./contract-fields";

export const SELLING_PLAN_GROUP_REMOVE_VARIANTS = /* GraphQL */ `
  mutation SellingPlanGroupRemoveProductVariants($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupRemoveProductVariants(id: $id, productVariantIds: $ids) {
      removedProductVariantIds
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface SellingPlanGroupRemoveProductVariantsResult {
  sellingPlanGroupRemoveProductVariants: { removedProductVariantIds: string[] | null; userErrors: GqlUserError[] };
}

/** The ids Shopify removed. */
export function mapSellingPlanGroupRemoveProductVariants(r: SellingPlanGroupRemoveProductVariantsResult): string[] {
  const payload = r.sellingPlanGroupRemoveProductVariants;
  assertNoUserErrors(payload.userErrors);
  return payload.removedProductVariantIds ?? [];
}
