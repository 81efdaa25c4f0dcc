// The Admin GraphQL writes of selling plan groups: sellingPlanGroupCreate, sellingPlanGroupUpdate
// (sellingPlansToCreate/Update/Delete), sellingPlanGroupDelete and the four calls that change the
// products and variants a group is sold on. Each sends Shopify's selling_plan_groups/create,
// /update or /delete webhook. The input checks are in ./selling-plan-rules.ts.
import { newGid, type SellingPlan, type SellingPlanGroup, type ShopState, type SimState, type Outcome, type UserError } from "../state";
import { sellingPlanGroupPayload } from "../payloads";
import { ok, refuse } from "./outcome";
import { checkPlan, duplicateNameErrors, MAX_PLANS_PER_GROUP, type ParsedPlan } from "./selling-plan-rules";

/* eslint-disable @typescript-eslint/no-explicit-any -- input arrives as the schema's coerced input objects */
type In = Record<string, any>;

const fail = <T>(userErrors: UserError[]): Outcome<T> => ({ ok: false, userErrors });

/** A group of this app's that the caller may change (another app's is invisible, as on Shopify). */
const ownGroup = (shop: ShopState, id: string) => (shop.sellingPlanGroups[id]?.app === "self" ? shop.sellingPlanGroups[id] : undefined);

const parsedOf = (p: SellingPlan): ParsedPlan => ({
  id: p.id,
  name: p.name,
  interval: p.interval,
  intervalCount: p.intervalCount,
  policies: p.policies ?? {
    options: [p.name],
    description: null,
    position: null,
    minCycles: null,
    maxCycles: null,
    anchors: [],
    cutoff: null,
    preAnchorBehavior: "ASAP",
    pricingPolicies: [],
  },
});

function resourceErrors(shop: ShopState, productIds: string[], variantIds: string[], at: string[]): UserError[] {
  const products = productIds.filter((id) => !shop.products[id]);
  if (products.length) return [{ field: [...at, "productIds"], message: `Product does not exist: ${products.join(", ")}`, code: "PRODUCT_DOES_NOT_EXIST" }];
  const variants = variantIds.filter((id) => !shop.variants[id]);
  if (variants.length)
    return [{ field: [...at, "productVariantIds"], message: `Product variant does not exist: ${variants.join(", ")}`, code: "PRODUCT_VARIANT_DOES_NOT_EXIST" }];
  return [];
}

const variantsOfProducts = (shop: ShopState, productIds: string[]) =>
  Object.values(shop.variants)
    .filter((v) => productIds.includes(v.productId))
    .map((v) => v.id);

function checkPlans(creates: In[], updates: In[], deletes: string[], group: SellingPlanGroup | null): { errors: UserError[]; plans: ParsedPlan[] } {
  const errors: UserError[] = [];
  const current = new Map((group?.sellingPlans ?? []).map((p) => [p.id, parsedOf(p)]));
  for (const [i, id] of deletes.entries()) {
    if (!current.has(id))
      errors.push({ field: ["input", "sellingPlansToDelete", String(i)], message: "Selling plan does not exist", code: "PLAN_DOES_NOT_EXIST" });
  }
  const updated = new Map<string, ParsedPlan>();
  updates.forEach((u, i) => {
    const at = ["input", "sellingPlansToUpdate", String(i)];
    if (!u.id)
      return errors.push({ field: [...at, "id"], message: "Selling plan ID must be specified to update", code: "PLAN_ID_MUST_BE_SPECIFIED_TO_UPDATE" });
    const existing = current.get(u.id);
    if (!existing) return errors.push({ field: [...at, "id"], message: "Selling plan does not exist", code: "PLAN_DOES_NOT_EXIST" });
    const r = checkPlan(u, at, existing);
    errors.push(...r.errors);
    if (r.plan) updated.set(u.id, r.plan);
    return undefined;
  });
  const created: ParsedPlan[] = [];
  creates.forEach((c, i) => {
    const r = checkPlan(c, ["input", "sellingPlansToCreate", String(i)], null);
    errors.push(...r.errors);
    if (r.plan) created.push(r.plan);
  });
  if (errors.length) return { errors, plans: [] };
  const kept = [...current.values()].filter((p) => !deletes.includes(p.id!)).map((p) => updated.get(p.id!) ?? p);
  const plans = [...kept, ...created];
  if (plans.length > MAX_PLANS_PER_GROUP) {
    return {
      errors: [
        {
          field: ["input", "sellingPlansToCreate"],
          message: `A selling plan group can have at most ${MAX_PLANS_PER_GROUP} selling plans`,
          code: "SELLING_PLAN_COUNT_UPPER_BOUND",
        },
      ],
      plans: [],
    };
  }
  if (plans.length === 0) {
    return {
      errors: [
        {
          field: ["input", "sellingPlansToCreate"],
          message: "A selling plan group must have at least one selling plan",
          code: "SELLING_PLAN_COUNT_LOWER_BOUND",
        },
      ],
      plans: [],
    };
  }
  const dup = duplicateNameErrors(
    plans.map((p) => p.name),
    ["input", creates.length ? "sellingPlansToCreate" : "sellingPlansToUpdate"],
  );
  return { errors: dup, plans: dup.length ? [] : plans };
}

function storePlans(state: SimState, plans: ParsedPlan[]): SellingPlan[] {
  return plans.map((p) => ({
    id: p.id ?? newGid(state, "SellingPlan"),
    name: p.name,
    interval: p.interval,
    intervalCount: p.intervalCount,
    policies: p.policies,
  }));
}

function groupFieldErrors(input: In, creating: boolean): UserError[] {
  if ((creating || input.name !== undefined) && !String(input.name ?? "").trim())
    return [{ field: ["input", "name"], message: "Name can't be blank", code: "BLANK" }];
  if (input.merchantCode !== undefined && String(input.merchantCode).length > 255) {
    return [{ field: ["input", "merchantCode"], message: "Merchant code is too long (maximum is 255 characters)", code: "TOO_LONG" }];
  }
  return [];
}

export function createGroupViaApi(state: SimState, shop: ShopState, input: In, resources: In | null): Outcome<SellingPlanGroup> {
  const productIds: string[] = resources?.productIds ?? [];
  const variantIds: string[] = resources?.productVariantIds ?? [];
  const errors = [...groupFieldErrors(input, true), ...resourceErrors(shop, productIds, variantIds, ["resources"])];
  if (errors.length) return fail(errors);
  const checked = checkPlans(input.sellingPlansToCreate ?? [], [], [], null);
  if (checked.errors.length) return fail(checked.errors);
  const group: SellingPlanGroup = {
    id: newGid(state, "SellingPlanGroup"),
    name: String(input.name),
    merchantCode: input.merchantCode ?? String(input.name).toLowerCase().replace(/\W+/g, "-"),
    app: "self",
    sellingPlans: storePlans(state, checked.plans),
    variantIds: [...new Set([...variantIds, ...variantsOfProducts(shop, productIds)])],
  };
  shop.sellingPlanGroups[group.id] = group;
  return ok(group, [{ topic: "selling_plan_groups/create", payload: sellingPlanGroupPayload(shop, group), app: "self" }]);
}

export function updateGroupViaApi(state: SimState, shop: ShopState, id: string, input: In): Outcome<{ group: SellingPlanGroup; deleted: string[] }> {
  const group = ownGroup(shop, id);
  if (!group) return refuse("Selling plan group does not exist", ["id"], "GROUP_DOES_NOT_EXIST");
  const errors = groupFieldErrors(input, false);
  if (errors.length) return fail(errors);
  const deletes: string[] = input.sellingPlansToDelete ?? [];
  const checked = checkPlans(input.sellingPlansToCreate ?? [], input.sellingPlansToUpdate ?? [], deletes, group);
  if (checked.errors.length) return fail(checked.errors);
  if (input.name !== undefined) group.name = String(input.name);
  if (input.merchantCode !== undefined) group.merchantCode = String(input.merchantCode);
  group.sellingPlans = storePlans(state, checked.plans);
  return ok({ group, deleted: deletes }, [{ topic: "selling_plan_groups/update", payload: sellingPlanGroupPayload(shop, group), app: "self" }]);
}

/** Shopify keeps contracts sold on a deleted group (their lines keep the plan's name). */
export function deleteGroupViaApi(shop: ShopState, id: string): Outcome<string> {
  const group = ownGroup(shop, id);
  if (!group) return refuse("Selling plan group does not exist", ["id"], "GROUP_DOES_NOT_EXIST");
  delete shop.sellingPlanGroups[id];
  return ok(id, [{ topic: "selling_plan_groups/delete", payload: { admin_graphql_api_id: id, id: Number(id.split("/").pop()) }, app: "self" }]);
}

export type ResourceChange = "addProducts" | "removeProducts" | "addVariants" | "removeVariants";

export function changeGroupResources(shop: ShopState, id: string, change: ResourceChange, ids: string[]): Outcome<{ group: SellingPlanGroup; ids: string[] }> {
  const group = ownGroup(shop, id);
  if (!group) return refuse("Selling plan group does not exist", ["id"], "GROUP_DOES_NOT_EXIST");
  const products = change.endsWith("Products");
  const errors = products ? resourceErrors(shop, ids, [], []) : resourceErrors(shop, [], ids, []);
  if (errors.length) return fail(errors);
  const variants = products ? variantsOfProducts(shop, ids) : ids;
  const before = new Set(group.variantIds);
  if (change.startsWith("add")) group.variantIds = [...new Set([...group.variantIds, ...variants])];
  else group.variantIds = group.variantIds.filter((v) => !variants.includes(v));
  const removed = products ? ids.filter((p) => variantsOfProducts(shop, [p]).some((v) => before.has(v))) : ids.filter((v) => before.has(v));
  return ok({ group, ids: change.startsWith("add") ? ids : removed }, [
    { topic: "selling_plan_groups/update", payload: sellingPlanGroupPayload(shop, group), app: "self" },
  ]);
}
