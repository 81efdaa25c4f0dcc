// Selling plan groups: seeded by the control API and changed by the Admin GraphQL mutations.
import { newGid, type AppOwner, type Interval, type SellingPlanGroup, type ShopState, type SimState, type Outcome } from "../state";
import { sellingPlanGroupPayload } from "../payloads";

import { ok, refuse } from "./outcome";

export interface SellingPlanGroupInput {
  name: string;
  merchantCode?: string;
  app?: AppOwner;
  plans: { name: string; interval?: Interval; intervalCount?: number }[];
  variantIds?: string[];
}

export function createSellingPlanGroup(state: SimState, shop: ShopState, input: SellingPlanGroupInput): SellingPlanGroup {
  const group: SellingPlanGroup = {
    id: newGid(state, "SellingPlanGroup"),
    name: input.name,
    merchantCode: input.merchantCode ?? input.name.toLowerCase().replace(/\W+/g, "-"),
    app: input.app ?? "self",
    sellingPlans: input.plans.map((p) => ({
      id: newGid(state, "SellingPlan"),
      name: p.name,
      interval: p.interval ?? "MONTH",
      intervalCount: p.intervalCount ?? 1,
    })),
    variantIds: input.variantIds ?? [],
  };
  shop.sellingPlanGroups[group.id] = group;
  return group;
}

export interface SellingPlanGroupPatch {
  name?: string;
  /** Replaces the group's plans: each gets a new id, as when a merchant recreates them in admin. */
  plans?: SellingPlanGroupInput["plans"];
  variantIds?: string[];
}

/**
 * A merchant's edit of a selling plan group in Shopify admin. Sends selling_plan_groups/update,
 * which (like Shopify's) carries no child plan ids: the app re-reads the group.
 */
export function updateSellingPlanGroup(state: SimState, shop: ShopState, id: string, patch: SellingPlanGroupPatch): Outcome<SellingPlanGroup> {
  const group = shop.sellingPlanGroups[id];
  if (!group) return refuse("Selling plan group does not exist", ["id"], "GROUP_DOES_NOT_EXIST");
  const unknown = (patch.variantIds ?? []).filter((v) => !shop.variants[v]);
  if (unknown.length) return refuse(`Product variant does not exist: ${unknown.join(", ")}`, ["productVariantIds"], "PRODUCT_VARIANT_DOES_NOT_EXIST");
  if (patch.name !== undefined) group.name = patch.name;
  if (patch.plans) {
    group.sellingPlans = patch.plans.map((p) => ({
      id: newGid(state, "SellingPlan"),
      name: p.name,
      interval: p.interval ?? "MONTH",
      intervalCount: p.intervalCount ?? 1,
    }));
  }
  if (patch.variantIds) group.variantIds = [...patch.variantIds];
  return ok(group, [{ topic: "selling_plan_groups/update", payload: sellingPlanGroupPayload(shop, group), app: group.app }]);
}
