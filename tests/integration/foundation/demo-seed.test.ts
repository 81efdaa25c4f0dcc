// The demo seed: what the README promises is there, in the simulator and in the mirror, and a
// second run changes nothing.
import { prisma } from "../../../app/db.server";
import { seedDemo } from "../../../prisma/seed";
import { churn, cohorts } from "../../../app/domain/insights/analytics.server";
import { startStack, type Stack } from "../../support/stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  await seedDemo();
}, 300_000);
afterAll(async () => {
  await stack.close();
});

const shop = (domain: string) => prisma.shop.findUniqueOrThrow({ where: { domain } });

describe("demo seed", () => {
  it("creates demo-shop on Pro with 600+ contracts in every status, some without a monthly amount", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    expect(demo.appPlan).toBe("PRO");
    const byStatus = await prisma.contract.groupBy({ by: ["status"], where: { shopId: demo.id }, _count: true });
    const total = byStatus.reduce((s, g) => s + g._count, 0);
    expect(total).toBeGreaterThanOrEqual(600);
    expect(byStatus.map((g) => g.status).sort()).toEqual(["ACTIVE", "CANCELLED", "EXPIRED", "FAILED", "PAUSED"]);
    expect(await prisma.contract.count({ where: { shopId: demo.id, monthlyAmountCents: null } })).toBeGreaterThan(0);
  });

  it("keeps another app's contracts in the simulator only", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    const simulated = await stack.control.call<{ id: string; app: string }[]>("GET", `${stack.control.shop(demo.domain)}/contracts`);
    const foreign = simulated.filter((c) => c.app === "other");
    expect(foreign.length).toBeGreaterThan(0);
    expect(await prisma.contract.count({ where: { shopId: demo.id, contractGid: { in: foreign.map((c) => c.id) } } })).toBe(0);
    expect(await prisma.contract.count({ where: { shopId: demo.id } })).toBe(simulated.length - foreign.length);
  });

  it("has rolling and anchored plans, with anchor_months empty and set", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    const plans = await prisma.sellingPlanGroup.findMany({ where: { shopId: demo.id } });
    expect(plans.some((p) => p.scheduleMode === "ROLLING")).toBe(true);
    const anchored = plans.filter((p) => p.scheduleMode === "ANCHORED");
    expect(anchored.some((p) => p.anchorMonths.length === 0)).toBe(true);
    expect(anchored.some((p) => p.anchorMonths.length > 0)).toBe(true);
    expect(anchored.every((p) => p.anchorDay && p.cutoffDays && p.preAnchorBehavior)).toBe(true);
  });

  it("has bundles with 24+ periods of boxes, Mix & Match, gifts of both kinds, win-back sends, notifications", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    const bundles = await prisma.bundle.findMany({ where: { shopId: demo.id }, include: { _count: { select: { boxes: true } } } });
    expect(bundles.some((b) => b._count.boxes >= 24)).toBe(true);
    expect(new Set(bundles.map((b) => b.kind))).toEqual(new Set(["CURATED", "BUILD_A_BOX"]));
    expect(await prisma.mixMatchEntry.count({ where: { category: { plan: { shopId: demo.id } } } })).toBeGreaterThan(0);
    const gifts = await prisma.gift.groupBy({ by: ["kind"], where: { shopId: demo.id }, _count: true });
    expect(gifts.map((g) => g.kind).sort()).toEqual(["PREPAID", "RECURRING"]);
    expect(await prisma.winbackSend.count({ where: { shopId: demo.id, reactivated: true } })).toBeGreaterThan(0);
    expect(await prisma.notificationLogEntry.count({ where: { shopId: demo.id } })).toBeGreaterThan(0);
  });

  it("shows real churn: ended contracts ended over the shop's history, non-zero churn, cohorts that thin out", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    const now = new Date();
    const ended = await prisma.contract.findMany({
      where: { shopId: demo.id, status: { in: ["CANCELLED", "EXPIRED", "FAILED"] } },
      select: { endedAt: true, createdAt: true },
    });
    expect(ended.length).toBeGreaterThan(50);
    for (const c of ended) {
      expect(c.endedAt).not.toBeNull();
      expect(c.endedAt!.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(c.endedAt!.getTime()).toBeGreaterThanOrEqual(c.createdAt.getTime());
    }
    expect(new Set(ended.map((c) => c.endedAt!.toISOString().slice(0, 7))).size).toBeGreaterThanOrEqual(6);
    expect(await prisma.contract.count({ where: { shopId: demo.id, status: { in: ["ACTIVE", "PAUSED"] }, endedAt: { not: null } } })).toBe(0);

    const d30 = await churn(demo.id, "30d", now);
    expect(d30.churned).toBeGreaterThan(0);
    expect(d30.churnRate).toBeGreaterThan(0);
    expect(d30.churnRate).toBeLessThan(0.5);
    expect((await churn(demo.id, "90d", now)).churned).toBeGreaterThan(d30.churned);
    const { cohorts: list } = await cohorts(demo.id, "12", now);
    const older = list.filter((c) => c.retention.length >= 4 && c.size >= 5);
    expect(older.length).toBeGreaterThan(0);
    // Every older cohort has lost someone by now, and nobody comes back in the counts.
    for (const c of older) {
      expect(c.retention.at(-1)!.active).toBeLessThan(c.size);
      for (let k = 1; k < c.retention.length; k++) expect(c.retention[k].active).toBeLessThanOrEqual(c.retention[k - 1].active);
    }
  });

  it("dates nothing in the future: notifications, win-back sends, gifts, cancellation reasons", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    const now = new Date();
    const where = { shopId: demo.id };
    expect(await prisma.notificationLogEntry.count({ where })).toBeGreaterThan(0);
    expect(await prisma.notificationLogEntry.count({ where: { ...where, OR: [{ createdAt: { gt: now } }, { deliveredAt: { gt: now } }] } })).toBe(0);
    expect(await prisma.winbackSend.count({ where: { ...where, OR: [{ sentAt: { gt: now } }, { reactivatedAt: { gt: now } }] } })).toBe(0);
    expect(await prisma.gift.count({ where: { ...where, OR: [{ sentAt: { gt: now } }, { claimedAt: { gt: now } }] } })).toBe(0);
    expect(await prisma.cancelReason.count({ where: { ...where, createdAt: { gt: now } } })).toBe(0);
  });

  it("creates other-shop on Pro and free-shop below Pro, each with its own contracts", async () => {
    const other = await shop("other-shop.myshopify.com");
    const free = await shop("free-shop.myshopify.com");
    expect([other.appPlan, free.appPlan]).toEqual(["PRO", "FREE"]);
    expect(await prisma.contract.count({ where: { shopId: other.id } })).toBeGreaterThan(0);
    expect(await prisma.contract.count({ where: { shopId: free.id } })).toBeGreaterThan(0);
  });

  it("leaves the storefront metafields written with the live child selling plan of each plan", async () => {
    const demo = await shop("demo-shop.myshopify.com");
    type Metafield = { ownerId: string; namespace: string; key: string; value: string };
    const written = (await stack.control.call<Metafield[]>("GET", "/shops/demo-shop.myshopify.com/metafields")).filter((m) => m.namespace === "$app");
    const groups = await stack.control.call<{ id: string; sellingPlans: { id: string }[] }[]>("GET", "/shops/demo-shop.myshopify.com/selling-plan-groups");
    const liveFirstPlan = new Map(groups.map((g) => [g.id, g.sellingPlans[0].id]));
    const bundles = await prisma.bundle.findMany({ where: { shopId: demo.id } });
    const mixes = await prisma.mixMatchPlan.findMany({ where: { shopId: demo.id } });
    for (const [key, ids] of [
      ["bundle_plan", bundles.map((b) => b.id)],
      ["mix_match", mixes.map((m) => m.id)],
    ] as const) {
      const values = written.filter((m) => m.key === key).map((m) => JSON.parse(m.value));
      const idField = key === "bundle_plan" ? "bundle_id" : "mix_match_id";
      // Every plan of the kind reaches at least one product, with the live id of its group.
      expect(new Set(values.map((v) => v[idField]))).toEqual(new Set(ids));
      for (const v of values) expect(v.selling_plan_id).toBe(liveFirstPlan.get(v.selling_plan_group_id));
    }
    expect(await prisma.storefrontMetafield.count({ where: { shopId: demo.id } })).toBe(written.length);
  });

  it("allows the app's own origin on every demo shop, so the example portal it serves may call the Customer API", async () => {
    const { env } = await import("../../../app/env.server");
    const appOrigin = new URL(env().SHOPIFY_APP_URL).origin;
    for (const domain of ["demo-shop.myshopify.com", "other-shop.myshopify.com", "free-shop.myshopify.com"]) {
      const s = await shop(domain);
      const config = await prisma.portalConfig.findUniqueOrThrow({ where: { shopId: s.id } });
      expect(config.allowedOrigins, domain).toContain(appOrigin);
    }
  });

  it("is idempotent: a second run changes nothing", async () => {
    const counts = async () => ({
      contracts: await prisma.contract.count(),
      lines: await prisma.contractLine.count(),
      plans: await prisma.sellingPlanGroup.count(),
      boxes: await prisma.bundleBox.count(),
      gifts: await prisma.gift.count(),
      log: await prisma.notificationLogEntry.count(),
      sends: await prisma.winbackSend.count(),
      metafields: await prisma.storefrontMetafield.findMany({
        orderBy: [{ ownerGid: "asc" }, { key: "asc" }],
        select: { ownerGid: true, key: true, value: true },
      }),
      simulated: (await stack.control.call<unknown[]>("GET", "/shops/demo-shop.myshopify.com/contracts")).length,
    });
    const before = await counts();
    await seedDemo();
    expect(await counts()).toEqual(before);
  }, 240_000);
});
