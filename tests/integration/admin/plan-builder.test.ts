// The plan builder's writes (docs/decisions/111-selling-plan-writes.md) against the simulator
// through the production adapter, with real workers for the selling_plan_groups webhooks: what
// Shopify stores, what the mirror and GET /plans show, Shopify's refusals on the form field they
// name, app-only fields surviving edits, existing contracts left alone, and delete refused while
// subscribers remain.
import { prisma } from "../../../app/db.server";
import { createPlanGroup, deletePlanGroup, planGroupForm, updatePlanGroup } from "../../../app/domain/catalog/plan-builder.server";
import type { PlanGroupForm, PlanOptionForm } from "../../../app/domain/catalog/plan-form";
import { productPlans } from "../../../app/domain/storefront/reads.server";
import { api } from "../../support/admin-factories";
import { createContract, createKey } from "../../support/fixtures";
import { useStack } from "../../support/stack";

const stack = useStack({}, 60_000);

type SimPlan = { id: string; name: string; interval: string; intervalCount: number; policies?: Record<string, unknown> };
type SimGroup = { id: string; name: string; variantIds: string[]; sellingPlans: SimPlan[] };

async function shopWithProduct() {
  const { domain, shopId } = await stack.installShop();
  const product = await stack.control.call<{ id: string; variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
    title: "Coffee",
    variants: [
      { title: "250 g", price: "18.00" },
      { title: "1 kg", price: "50.00" },
    ],
  });
  return { ctx: { shopId, shopDomain: domain }, product };
}

const simGroup = async (domain: string, id: string) =>
  (await stack.control.call<SimGroup[]>("GET", `${stack.control.shop(domain)}/selling-plan-groups`)).find((g) => g.id === id);

const option = (over: Partial<PlanOptionForm> = {}): PlanOptionForm => ({
  id: null,
  interval: "MONTH",
  intervalCount: 1,
  pricing: { type: "PERCENTAGE", value: "10", afterCycle: null, afterType: null, afterValue: null },
  minCycles: null,
  maxCycles: null,
  giftable: false,
  label: "",
  ...over,
});

const form = (productId: string, over: Partial<PlanGroupForm> = {}): PlanGroupForm => ({
  name: "Coffee club",
  merchantCode: "coffee-club",
  productIds: [productId],
  variantIds: [],
  schedule: { mode: "anchored", anchorDay: 15, anchorMonths: [], cutoffDays: 3, preAnchorBehavior: "NEXT", shipDay: 18 },
  plans: [option()],
  ...over,
});

describe("the plan builder", () => {
  it("creates an anchored plan at Shopify (MONTHDAY 15, cutoff 3, NEXT, 10% off) and GET /plans shows the spec's schedule", async () => {
    const { ctx, product } = await shopWithProduct();
    const r = await createPlanGroup(ctx, form(product.id));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const g = await simGroup(ctx.shopDomain, r.groupGid);
    expect(g!.variantIds.sort()).toEqual(product.variants.map((v) => v.id).sort());
    expect(g!.sellingPlans[0]).toMatchObject({
      name: "Charged on the 15th, every month, 10% off",
      interval: "MONTH",
      intervalCount: 1,
      policies: {
        anchors: [{ type: "MONTHDAY", day: 15, month: null, cutoffDay: null }],
        cutoff: 3,
        preAnchorBehavior: "NEXT",
        pricingPolicies: [{ kind: "fixed", adjustmentType: "PERCENTAGE", value: "10", afterCycle: null }],
      },
    });
    const key = (await createKey({ shopId: ctx.shopId, scopes: ["read:plans"] })).key;
    const plans = await api(key, "GET", "/plans");
    expect(plans.json.data).toHaveLength(1);
    expect(plans.json.data[0]).toMatchObject({
      selling_plan_group_id: r.groupGid,
      name: "Coffee club",
      status: "active",
      cadence: { interval: "MONTH", interval_count: 1 },
      discount: { label: "10% off" },
      schedule: {
        mode: "anchored",
        anchor_day: 15,
        anchor_months: [],
        cutoff_days: 3,
        pre_anchor_behavior: "NEXT",
        ship_day: 18,
        label: "Charged on the 15th, every month, 10% off",
      },
    });
    // The Storefront API offers it on the product with the child plan resolved live.
    const offered = await productPlans({ shopId: ctx.shopId, shopDomain: ctx.shopDomain, productGid: product.id });
    expect(offered.groups.map((p) => [p.group.groupGid, p.live.sellingPlans?.[0]?.id])).toEqual([[r.groupGid, g!.sellingPlans[0].id]]);
    // The create webhook reached the app and was processed by the mirror worker.
    await stack.settled(
      ctx.shopDomain,
      async () =>
        (await prisma.inboundWebhook.count({ where: { shopDomain: ctx.shopDomain, topic: "selling_plan_groups/create", processedAt: { not: null } } })) > 0,
    );
  });

  it("sends a plan anchored on several months as one year with a YEARDAY anchor per month", async () => {
    const { ctx, product } = await shopWithProduct();
    const r = await createPlanGroup(
      ctx,
      form(product.id, { schedule: { mode: "anchored", anchorDay: 1, anchorMonths: [9, 3, 6, 12], cutoffDays: 0, preAnchorBehavior: "ASAP", shipDay: null } }),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const plan = (await simGroup(ctx.shopDomain, r.groupGid))!.sellingPlans[0];
    expect([plan.interval, plan.intervalCount]).toEqual(["YEAR", 1]);
    expect((plan.policies as { anchors: unknown[] }).anchors).toEqual([3, 6, 9, 12].map((month) => ({ type: "YEARDAY", day: 1, month, cutoffDay: null })));
    expect((await prisma.sellingPlanGroup.findFirstOrThrow({ where: { shopId: ctx.shopId, groupGid: r.groupGid } })).anchorMonths).toEqual([3, 6, 9, 12]);
  });

  it("edits pricing and adds a plan; app-only fields survive the update webhook; existing contracts keep their dates", async () => {
    const { ctx, product } = await shopWithProduct();
    const r = await createPlanGroup(ctx, form(product.id, { plans: [option({ giftable: true })] }));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const next = new Date("2027-01-15T14:00:00Z");
    const contract = await createContract(ctx.shopId, { sellingPlanGroupGid: r.groupGid, nextBillingAt: next });
    const edit = (await planGroupForm(ctx.shopId, r.groupGid))!;
    edit.plans[0].pricing = { type: "PERCENTAGE", value: "15", afterCycle: 3, afterType: "PERCENTAGE", afterValue: "20" };
    edit.plans.push(option({ intervalCount: 2, label: "Every other month" }));
    const before = await prisma.inboundWebhook.count({ where: { shopDomain: ctx.shopDomain, topic: "selling_plan_groups/update" } });
    const u = await updatePlanGroup(ctx, r.groupGid, edit);
    if (!u.ok) throw new Error(JSON.stringify(u.errors));
    await stack.settled(
      ctx.shopDomain,
      async () =>
        (await prisma.inboundWebhook.count({ where: { shopDomain: ctx.shopDomain, topic: "selling_plan_groups/update", processedAt: { not: null } } })) >
        before,
    );
    const g = await simGroup(ctx.shopDomain, r.groupGid);
    expect(g!.sellingPlans.map((p) => p.name)).toEqual(["Charged on the 15th, every month, 15% off, then 20% off from order 3", "Every other month"]);
    expect(g!.sellingPlans[0].id).toBe(edit.plans[0].id);
    const again = (await planGroupForm(ctx.shopId, r.groupGid))!;
    expect(again.schedule.shipDay).toBe(18);
    expect(again.plans.map((p) => [p.giftable, p.intervalCount, p.pricing.afterCycle])).toEqual([
      [true, 1, 3],
      [false, 2, null],
    ]);
    expect((await prisma.contract.findUniqueOrThrow({ where: { id: contract.id } })).nextBillingAt).toEqual(next);
  });

  it("shows Shopify's refusals on the form field they name", async () => {
    const { ctx, product } = await shopWithProduct();
    const many = Array.from({ length: 32 }, (_, i) => option({ label: `Plan ${i}` }));
    expect(await createPlanGroup(ctx, form(product.id, { plans: many }))).toEqual({ ok: false, errors: { plans: expect.stringContaining("at most 31") } });
    expect(await createPlanGroup(ctx, form(product.id, { plans: [option({ minCycles: 6, maxCycles: 3 })] }))).toEqual({
      ok: false,
      errors: { "plans.0.maxCycles": "Max cycles must be greater than min cycles" },
    });
    expect(await createPlanGroup(ctx, form(product.id, { plans: [option(), option({ label: "" })] }))).toEqual({
      ok: false,
      errors: { plans: expect.stringContaining("already taken") },
    });
    // The form's own checks never reach Shopify.
    expect(await createPlanGroup(ctx, form(product.id, { name: " " }))).toEqual({ ok: false, errors: { name: "Enter a name" } });
    expect(await prisma.sellingPlanGroup.count({ where: { shopId: ctx.shopId } })).toBe(0);
  });

  it("refuses to delete a group with active subscribers, then deletes and archives it", async () => {
    const { ctx, product } = await shopWithProduct();
    const r = await createPlanGroup(ctx, form(product.id));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = await createContract(ctx.shopId, { sellingPlanGroupGid: r.groupGid, status: "ACTIVE" });
    const refused = await deletePlanGroup(ctx, r.groupGid);
    expect(refused).toEqual({ ok: false, liveContracts: 1, message: expect.stringContaining("1 active subscriber is on “Coffee club”") });
    expect(await simGroup(ctx.shopDomain, r.groupGid)).toBeDefined();
    await prisma.contract.update({ where: { id: c.id }, data: { status: "CANCELLED" } });
    expect(await deletePlanGroup(ctx, r.groupGid)).toEqual({ ok: true });
    expect((await productPlans({ shopId: ctx.shopId, shopDomain: ctx.shopDomain, productGid: product.id })).groups).toEqual([]);
    expect(await simGroup(ctx.shopDomain, r.groupGid)).toBeUndefined();
    const key = (await createKey({ shopId: ctx.shopId, scopes: ["read:plans"] })).key;
    expect((await api(key, "GET", "/plans?status=archived")).json.data.map((p: { selling_plan_group_id: string }) => p.selling_plan_group_id)).toEqual([
      r.groupGid,
    ]);
    await stack.settled(
      ctx.shopDomain,
      async () =>
        (await prisma.inboundWebhook.count({ where: { shopDomain: ctx.shopDomain, topic: "selling_plan_groups/delete", processedAt: { not: null } } })) > 0,
    );
  });
});
