// The simulated storefront's checkout (docs/simulator.md#checkout) with the app behind it: a
// shopper's cart line with a selling plan and a line property becomes a customer, an order and a
// contract whose first billing date the simulator computes with its own anchor rules; the app
// mirrors the contract, publishes subscription.created, and its drift check compares Shopify's
// date with the schedule engine's (a mismatch is a Risk Center item naming the plan and both dates).
import { Prisma } from "@prisma/client";
import { prisma } from "../../../app/db.server";
import { createPlanGroup, planGroupForm, updatePlanGroup } from "../../../app/domain/catalog/plan-builder.server";
import type { PlanGroupForm } from "../../../app/domain/catalog/plan-form";
import { openRisks } from "../../../app/domain/shop/risks.server";
import { runBilling } from "../../../app/domain/renewals/charge.server";
import { fixedClock } from "../../../app/domain/renewals/clock.server";
import { useStack } from "../../support/stack";

const stack = useStack({}, 60_000);

const form = (productId: string, preAnchorBehavior: "NEXT" | "ASAP" = "NEXT"): PlanGroupForm => ({
  name: "Coffee club",
  merchantCode: "coffee-club",
  productIds: [productId],
  variantIds: [],
  schedule: { mode: "anchored", anchorDay: 15, anchorMonths: [], cutoffDays: 3, preAnchorBehavior, shipDay: null },
  plans: [
    {
      id: null,
      interval: "MONTH",
      intervalCount: 1,
      pricing: { type: "PERCENTAGE", value: "10", afterCycle: null, afterType: null, afterValue: null },
      minCycles: null,
      maxCycles: null,
      giftable: false,
      label: "",
    },
  ],
});

async function setup(preAnchorBehavior: "NEXT" | "ASAP" = "NEXT") {
  const { domain, shopId } = await stack.installShop();
  const product = await stack.control.call<{ id: string; variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
    title: "House coffee",
    variants: [{ title: "250 g", price: "20.00" }],
  });
  const r = await createPlanGroup({ shopId, shopDomain: domain }, form(product.id, preAnchorBehavior));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const plan = await prisma.sellingPlan.findFirstOrThrow({ where: { group: { groupGid: r.groupGid } } });
  return { domain, shopId, groupGid: r.groupGid, variantId: product.variants[0].id, planGid: plan.sellingPlanGid };
}

const num = (gid: string) => gid.split("/").pop();

/** Adds to the cart and pays, as the storefront's pages do (over HTTP, the cart on its cookie). */
async function buy(domain: string, variantId: string, planGid: string | null, properties: Record<string, string> = {}) {
  const base = `${stack.sim.url}/storefront/${domain}`;
  const add = await fetch(`${base}/cart/add.js`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ id: num(variantId), quantity: 2, selling_plan: planGid ? num(planGid) : null, properties }] }),
  });
  expect(add.status).toBe(200);
  const cookie = add.headers.get("set-cookie")!.split(";")[0];
  const cart = await fetch(`${base}/cart`, { headers: { cookie } });
  expect(await cart.text()).toContain('aria-label="Cart lines"');
  const paid = await fetch(`${base}/checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json", cookie },
    body: JSON.stringify({ email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" }),
  });
  return {
    status: paid.status,
    body: (await paid.json()) as { order: { id: string; name: string }; customer_id: string; contract_ids: string[]; errors?: string },
  };
}

afterEach(() => {
  stack.sim.core.now = () => new Date();
});

describe("the simulated storefront's checkout", () => {
  it("NEXT, 18 days before the 15th: the contract's first charge is the coming 15th; mirrored, announced, no drift", async () => {
    const s = await setup();
    stack.sim.core.now = () => new Date("2026-11-27T15:00:00Z");
    const paid = await buy(s.domain, s.variantId, s.planGid, { Grind: "Espresso" });
    expect(paid.status).toBe(200);
    expect(paid.body.contract_ids).toHaveLength(1);
    const contractGid = paid.body.contract_ids[0];
    const sim = await stack.control.call<{
      nextBillingDate: string;
      lines: { price: string; quantity: number; customAttributes: unknown[] }[];
      originOrder: { id: string };
    }>("GET", `${stack.control.shop(s.domain)}/contracts/${encodeURIComponent(contractGid)}`);
    expect(sim.nextBillingDate).toBe("2026-12-15T15:00:00.000Z");
    expect(sim.lines[0]).toMatchObject({ price: "18.00", quantity: 2, customAttributes: [{ key: "Grind", value: "Espresso" }] });
    expect(sim.originOrder.id).toBe(paid.body.order.id);

    const row = await stack.settled(s.domain, () => prisma.contract.findFirst({ where: { shopId: s.shopId, contractGid } }));
    expect(row.nextBillingAt).toEqual(new Date("2026-12-15T15:00:00Z"));
    expect(row.sellingPlanGroupGid).toBe(s.groupGid);
    expect(row.scheduleDrift).toBeNull();
    const created = await stack.settled(s.domain, () => prisma.event.findFirst({ where: { shopId: s.shopId, type: "subscription.created" } }));
    expect(created.data).toMatchObject({ contract_id: contractGid, status: "ACTIVE" });
    expect((await openRisks(s.shopId)).filter((r) => r.area === "Plans")).toEqual([]);
  });

  it("NEXT inside the cutoff skips to the following 15th; ASAP inside the cutoff renews on the one after too", async () => {
    for (const behavior of ["NEXT", "ASAP"] as const) {
      const s = await setup(behavior);
      stack.sim.core.now = () => new Date("2026-12-13T10:00:00Z");
      const paid = await buy(s.domain, s.variantId, s.planGid);
      const row = await stack.settled(s.domain, () => prisma.contract.findFirst({ where: { shopId: s.shopId, contractGid: paid.body.contract_ids[0] } }));
      expect(row.nextBillingAt).toEqual(new Date("2027-01-15T10:00:00Z"));
      expect(row.scheduleDrift).toBeNull();
    }
  });

  it("an edited plan changes new checkouts; the contract sold before keeps its date and price", async () => {
    const s = await setup();
    stack.sim.core.now = () => new Date("2026-11-27T15:00:00Z");
    const before = await buy(s.domain, s.variantId, s.planGid);
    const old = await stack.settled(s.domain, () => prisma.contract.findFirst({ where: { shopId: s.shopId, contractGid: before.body.contract_ids[0] } }));
    const edit = (await planGroupForm(s.shopId, s.groupGid))!;
    edit.schedule.anchorDay = 20;
    edit.plans[0].pricing.value = "15";
    const u = await updatePlanGroup({ shopId: s.shopId, shopDomain: s.domain }, s.groupGid, edit);
    expect(u.ok).toBe(true);
    const after = await buy(s.domain, s.variantId, s.planGid);
    const fresh = await stack.control.call<{ nextBillingDate: string; lines: { price: string }[] }>(
      "GET",
      `${stack.control.shop(s.domain)}/contracts/${encodeURIComponent(after.body.contract_ids[0])}`,
    );
    expect([fresh.nextBillingDate, fresh.lines[0].price]).toEqual(["2026-12-20T15:00:00.000Z", "17.00"]);
    const kept = await stack.control.call<{ nextBillingDate: string; lines: { price: string }[] }>(
      "GET",
      `${stack.control.shop(s.domain)}/contracts/${encodeURIComponent(before.body.contract_ids[0])}`,
    );
    expect([kept.nextBillingDate, kept.lines[0].price]).toEqual(["2026-12-15T15:00:00.000Z", "18.00"]);
    expect((await prisma.contract.findUniqueOrThrow({ where: { id: old.id } })).nextBillingAt).toEqual(new Date("2026-12-15T15:00:00Z"));
    const mirrored = await stack.settled(s.domain, () => prisma.contract.findFirst({ where: { shopId: s.shopId, contractGid: after.body.contract_ids[0] } }));
    expect(mirrored.scheduleDrift).toBeNull();
  });

  it("a one-time line makes an order and no contract; a plan not sold on the variant is refused", async () => {
    const s = await setup();
    const once = await buy(s.domain, s.variantId, null);
    expect(once.status).toBe(200);
    expect(once.body.contract_ids).toEqual([]);
    const other = await stack.control.call<{ variants: { id: string }[] }>("POST", `${stack.control.shop(s.domain)}/products`, {
      title: "Mug",
      variants: [{ title: "White" }],
    });
    const refused = await buy(s.domain, other.variants[0].id, s.planGid);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toContain("not offered on this variant");
  });

  it("a first billing date that differs from the app's schedule becomes a Risk Center item naming the plan and both dates", async () => {
    const s = await setup();
    // The app's record of the plan says the 16th; Shopify bills on the 15th.
    await prisma.sellingPlanGroup.update({ where: { shopId_groupGid: { shopId: s.shopId, groupGid: s.groupGid } }, data: { anchorDay: 16 } });
    stack.sim.core.now = () => new Date("2026-11-27T15:00:00Z");
    const paid = await buy(s.domain, s.variantId, s.planGid);
    const contractGid = paid.body.contract_ids[0];
    const row = await stack.settled(s.domain, () =>
      prisma.contract.findFirst({ where: { shopId: s.shopId, contractGid, NOT: { scheduleDrift: { equals: Prisma.DbNull } } } }),
    );
    expect(row.scheduleDrift).toEqual({ plan: "Coffee club", group_id: s.groupGid, shopify: "2026-12-15", expected: "2026-12-16" });
    const risks = (await openRisks(s.shopId)).filter((r) => r.area === "Plans");
    expect(risks).toHaveLength(1);
    expect(risks[0].title).toBe(`Plan "Coffee club": Shopify bills ${contractGid} first on 2026-12-15, the plan's schedule says 2026-12-16`);
  });

  it("a renewal moves the contract to the next 15th; a date that differs from the engine's after a charge is a finding too", async () => {
    const s = await setup();
    stack.sim.core.now = () => new Date("2026-11-27T15:00:00Z");
    const paid = await buy(s.domain, s.variantId, s.planGid);
    const contractGid = paid.body.contract_ids[0];
    await stack.settled(s.domain, () => prisma.contract.findFirst({ where: { shopId: s.shopId, contractGid } }));
    // From here the app's record says the 16th: the renewal Shopify makes (to the 15th) disagrees.
    await prisma.sellingPlanGroup.update({ where: { shopId_groupGid: { shopId: s.shopId, groupGid: s.groupGid } }, data: { anchorDay: 16 } });
    stack.sim.core.now = () => new Date("2026-12-15T16:00:00Z");
    await runBilling(s.domain, { clock: fixedClock(new Date("2026-12-15T16:00:00Z")) });
    const row = await stack.settled(s.domain, () =>
      prisma.contract.findFirst({
        where: { shopId: s.shopId, contractGid, nextBillingAt: new Date("2027-01-15T15:00:00Z"), NOT: { scheduleDrift: { equals: Prisma.DbNull } } },
      }),
    );
    // For a plan on the 16th a charge on the 15th is off its calendar: the engine rejoins the next 16th.
    expect(row.scheduleDrift).toEqual({ plan: "Coffee club", group_id: s.groupGid, shopify: "2027-01-15", expected: "2026-12-16", at: "renewal" });
    expect((await openRisks(s.shopId)).find((r) => r.area === "Plans")?.title).toBe(
      `Plan "Coffee club": Shopify bills ${contractGid} next on 2027-01-15, the plan's schedule says 2026-12-16`,
    );
  });
});
