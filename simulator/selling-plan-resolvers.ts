// The Admin GraphQL mutations of selling plan groups (simulator/store/selling-plan-writes.ts),
// merged into admin-resolvers.ts's MUTATION. Same pattern: a refusal is every payload object
// null plus userErrors; a success commits (persists, sends the webhooks).
import type { SimCore } from "./core";
import { gqlSellingPlanGroup } from "./serialize";
import type { Outcome, ShopState } from "./state";

// The resolver shape of admin-resolvers.ts, restated so the two files do not import each other.
interface AdminContext {
  core: SimCore;
  shop: ShopState;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arguments arrive already checked against the schema
type RootResolver = (args: Record<string, any>, ctx: AdminContext) => unknown;
import { changeGroupResources, createGroupViaApi, deleteGroupViaApi, updateGroupViaApi, type ResourceChange } from "./store/selling-plan-writes";

function answer<T>(ctx: AdminContext, outcome: Outcome<T>, nullKeys: string[], onOk: (value: T) => Record<string, unknown>) {
  if (!outcome.ok) return { ...Object.fromEntries(nullKeys.map((k) => [k, null])), userErrors: outcome.userErrors };
  ctx.core.commit(ctx.shop, outcome.events);
  return { ...onOk(outcome.value), userErrors: [] };
}

const resources =
  (
    change: ResourceChange,
    argName: "productIds" | "productVariantIds",
    out: "sellingPlanGroup" | "removedProductIds" | "removedProductVariantIds",
  ): RootResolver =>
  (a, ctx) =>
    answer(ctx, changeGroupResources(ctx.shop, a.id, change, a[argName]), [out], ({ group, ids }) => ({
      [out]: out === "sellingPlanGroup" ? gqlSellingPlanGroup(ctx.shop, group) : ids,
    }));

export const SELLING_PLAN_MUTATIONS: Record<string, RootResolver> = {
  sellingPlanGroupCreate: (a, ctx) =>
    answer(ctx, createGroupViaApi(ctx.core.state, ctx.shop, a.input, a.resources ?? null), ["sellingPlanGroup"], (g) => ({
      sellingPlanGroup: gqlSellingPlanGroup(ctx.shop, g),
    })),
  sellingPlanGroupUpdate: (a, ctx) =>
    answer(ctx, updateGroupViaApi(ctx.core.state, ctx.shop, a.id, a.input), ["sellingPlanGroup", "deletedSellingPlanIds"], ({ group, deleted }) => ({
      sellingPlanGroup: gqlSellingPlanGroup(ctx.shop, group),
      deletedSellingPlanIds: deleted,
    })),
  sellingPlanGroupDelete: (a, ctx) =>
    answer(ctx, deleteGroupViaApi(ctx.shop, a.id), ["deletedSellingPlanGroupId"], (id) => ({ deletedSellingPlanGroupId: id })),
  sellingPlanGroupAddProducts: resources("addProducts", "productIds", "sellingPlanGroup"),
  sellingPlanGroupRemoveProducts: resources("removeProducts", "productIds", "removedProductIds"),
  sellingPlanGroupAddProductVariants: resources("addVariants", "productVariantIds", "sellingPlanGroup"),
  sellingPlanGroupRemoveProductVariants: resources("removeVariants", "productVariantIds", "removedProductVariantIds"),
};
