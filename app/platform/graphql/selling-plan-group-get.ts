// sellingPlanGroup(id) with its plans: resolves what a plan group offers.
import type { PlatformSellingPlanGroup } from "../port";

export const SELLING_PLAN_GROUP_GET = /* GraphQL */ `
  query SellingPlanGroupGet($id: ID!) {
    sellingPlanGroup(id: $id) {
      id
      sellingPlans(first: 50) { nodes { id name } }
    }
  }
`;

export interface SellingPlanGroupGetResult {
  sellingPlanGroup: { id: string; sellingPlans: { nodes: { id: string; name: string }[] } } | null;
}

export const mapSellingPlanGroupGet = (r: SellingPlanGroupGetResult): PlatformSellingPlanGroup | null =>
  r.sellingPlanGroup
    ? { groupId: r.sellingPlanGroup.id, sellingPlans: r.sellingPlanGroup.sellingPlans.nodes.map((p) => ({ id: p.id, name: p.name })) }
    : null;
