// sellingPlanGroup.appliesToProductVariant: whether a variant is sold on a selling plan group
// (a line edit may only swap to a variant of the line's own group).
export const SELLING_PLAN_GROUP_APPLIES = /* GraphQL */ `
  query SellingPlanGroupApplies($id: ID!, $productVariantId: ID!) {
    sellingPlanGroup(id: $id) {
      id
      appliesToProductVariant(productVariantId: $productVariantId)
    }
  }
`;

export interface SellingPlanGroupAppliesResult {
  sellingPlanGroup: { id: string; appliesToProductVariant: boolean } | null;
}

export const mapSellingPlanGroupApplies = (r: SellingPlanGroupAppliesResult): boolean => r.sellingPlanGroup?.appliesToProductVariant === true;
