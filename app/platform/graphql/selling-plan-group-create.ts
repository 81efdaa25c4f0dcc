// sellingPlanGroupCreate: a plan group with its recurring plans and the products and variants
// it is sold on (docs/decisions/111-selling-plan-writes.md). The plan input mapping here is
// shared by sellingPlanGroupUpdate: billing and delivery are recurring, anchors go on both
// (Shopify refuses unequal ones), preAnchorBehavior and cutoff on the delivery policy.
import { assertNoUserErrors, PlatformError } from "../errors";
import type { PlanGroupWrite, PlanPricingPolicy, PlanWrite, PlatformSellingPlanGroup } from "../port";
import type { GqlUserError } from "./contract-fields";

export const SELLING_PLAN_GROUP_CREATE = /* GraphQL */ `
  mutation SellingPlanGroupCreate($input: SellingPlanGroupInput!, $resources: SellingPlanGroupResourceInput) {
    sellingPlanGroupCreate(input: $input, resources: $resources) {
      sellingPlanGroup {
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
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface GroupFields {
  id: string;
  sellingPlans: { nodes: { id: string; name: string }[] };
  productVariants: { nodes: { id: string }[] };
}

export interface SellingPlanGroupCreateResult {
  sellingPlanGroupCreate: { sellingPlanGroup: GroupFields | null; userErrors: GqlUserError[] };
}

const anchorInput = (a: PlanWrite["billingAnchors"][number]) => ({ type: a.type, day: a.day, month: a.month ?? null, cutoffDay: a.cutoffDay ?? null });

function pricingInput(p: PlanPricingPolicy) {
  const adjustmentValue = p.adjustmentType === "PERCENTAGE" ? { percentage: Number(p.value) } : { fixedValue: p.value };
  return p.kind === "fixed"
    ? { fixed: { adjustmentType: p.adjustmentType, adjustmentValue } }
    : { recurring: { adjustmentType: p.adjustmentType, adjustmentValue, afterCycle: p.afterCycle ?? 1 } };
}

/** SellingPlanInput of one recurring plan. */
export function sellingPlanInput(p: PlanWrite) {
  return {
    ...(p.id ? { id: p.id } : {}),
    name: p.name,
    options: p.options,
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.position !== undefined ? { position: p.position } : {}),
    category: "SUBSCRIPTION",
    billingPolicy: {
      recurring: {
        interval: p.interval,
        intervalCount: p.intervalCount,
        minCycles: p.minCycles ?? null,
        maxCycles: p.maxCycles ?? null,
        anchors: p.billingAnchors.map(anchorInput),
      },
    },
    deliveryPolicy: {
      recurring: {
        interval: p.interval,
        intervalCount: p.intervalCount,
        anchors: p.deliveryAnchors.map(anchorInput),
        cutoff: p.cutoff ?? null,
        ...(p.preAnchorBehavior ? { preAnchorBehavior: p.preAnchorBehavior } : {}),
      },
    },
    pricingPolicies: p.pricingPolicies.map(pricingInput),
  };
}

/** SellingPlanGroupInput: only the keys given are sent (an update changes only those). */
export function sellingPlanGroupInput(g: PlanGroupWrite) {
  return {
    ...(g.name !== undefined ? { name: g.name } : {}),
    ...(g.merchantCode !== undefined ? { merchantCode: g.merchantCode } : {}),
    ...(g.description !== undefined ? { description: g.description } : {}),
    ...(g.options !== undefined ? { options: g.options } : {}),
    ...(g.plansToCreate ? { sellingPlansToCreate: g.plansToCreate.map(sellingPlanInput) } : {}),
    ...(g.plansToUpdate ? { sellingPlansToUpdate: g.plansToUpdate.map(sellingPlanInput) } : {}),
    ...(g.plansToDelete ? { sellingPlansToDelete: g.plansToDelete } : {}),
  };
}

export const mapGroupFields = (g: GroupFields): PlatformSellingPlanGroup => ({
  groupId: g.id,
  sellingPlans: g.sellingPlans.nodes.map((p) => ({ id: p.id, name: p.name })),
  variantIds: g.productVariants.nodes.map((v) => v.id),
});

export function mapSellingPlanGroupCreate(r: SellingPlanGroupCreateResult): PlatformSellingPlanGroup {
  const payload = r.sellingPlanGroupCreate;
  assertNoUserErrors(payload.userErrors);
  if (!payload.sellingPlanGroup) throw new PlatformError("unavailable", "sellingPlanGroupCreate returned no group");
  return mapGroupFields(payload.sellingPlanGroup);
}
