// One budget per shop (docs/decisions/096-shop-budget.md): a billing run, an import and a
// reconcile on one standard shop (2,000 points, 100 a second) at once, against the simulator's
// real cost bucket. The background work waits for points at its priority; an admin write made in
// the middle of it is answered without waiting for budget, no caller fails for want of points,
// and Shopify never has to throttle anyone.
import { prisma } from "../../../app/db.server";
import { runBilling } from "../../../app/domain/renewals/charge.server";
import { fixedClock } from "../../../app/domain/renewals/clock.server";
import { runImport } from "../../../app/domain/imports/run.server";
import { createImport, startImport } from "../../../app/domain/imports/start.server";
import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { QUEUES } from "../../../app/infra/queues.server";
import { platformFor } from "../../../app/platform/index.server";
import { budgetStats, forgetShopBudget, redisShopBudget, resetBudgetStats, type CallPriority } from "../../../app/platform/budget.server";
import { seedDueContract } from "../../support/billing-factories";
import { exportMigration, seedCatalogue, seedSubscribers } from "../../support/imports";
import { eventually, startStack, type Stack } from "../../support/stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workersExcept: [QUEUES.imports] });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const BILLED = 120;
const IMPORTED = 10;

it("with a billing run, an import and a reconcile at once, an admin write waits for no budget and every caller finishes unthrottled", async () => {
  // The import's file, from a source shop, its catalogue ids mapped to the target's.
  const source = await stack.installShop();
  const sourceCat = await seedCatalogue(stack, source.domain, source.shopId);
  await seedSubscribers(stack, source.domain, sourceCat, IMPORTED);
  const target = await stack.installShop();
  await stack.control.rateLimit(target.domain, { plan: "standard" });
  const targetCat = await seedCatalogue(stack, target.domain, target.shopId);
  let file = await exportMigration(stack, source.shopId);
  for (const [name, id] of sourceCat.ids) file = file.split(`"${id}"`).join(`"${targetCat.ids.get(name)}"`);

  const due = new Date(Date.now() - 86_400_000).toISOString();
  const seeded = [];
  for (let i = 0; i < BILLED; i += 10) {
    seeded.push(
      ...(await Promise.all(Array.from({ length: Math.min(10, BILLED - i) }, () => seedDueContract(stack.control, target.domain, { nextBillingDate: due })))),
    );
  }
  const { id: importId } = await createImport(target.shopId, { fileName: "migration.csv", text: file });
  await startImport(target.shopId, importId);
  const adminTarget = seeded[0].gid;
  // The day's earlier work left the bucket low; the app learns that from its next answer.
  await stack.control.rateLimit(target.domain, { currentlyAvailable: 300 });
  const admin = await platformFor(target.domain);
  await admin.getPaymentMethod(seeded[1].gid);
  resetBudgetStats();

  const billing = runBilling(target.domain, { clock: fixedClock(new Date()) });
  const imported = runImport(importId, { concurrency: 2 });
  const reconciled = reconcileShop(target.domain);

  // While billing queues for points, the merchant clicks Pause, then reads twice more.
  await eventually(async () => budgetStats().billing.waited > 0 || null, 60_000);
  const before = budgetStats();
  const paused = await admin.pauseContract(adminTarget);
  await admin.getPaymentMethod(seeded[2].gid);
  await admin.getPaymentMethod(seeded[3].gid);
  const after = budgetStats();
  expect(paused.status).toBe("PAUSED");
  expect(after.interactive.calls - before.interactive.calls).toBe(3);
  expect(after.interactive.waited - before.interactive.waited).toBe(0);
  // It went past callers that were waiting then: billing was still charging.
  expect(after.billing.calls).toBeLessThan(BILLED);

  const [bill, imp, rec] = await Promise.all([billing, imported, reconciled]);
  // Nobody failed for lack of budget: every due contract charged (the paused one may be refused
  // by Shopify, as it was paused first), the import done, every contract reconciled.
  expect(bill.notCharged.filter((l) => l.outcome !== "refused")).toEqual([]);
  expect(bill.charged.length).toBeGreaterThanOrEqual(BILLED - 1);
  expect(imp).toBe("done");
  expect(await prisma.migrationImport.findUniqueOrThrow({ where: { id: importId } })).toMatchObject({ status: "done" });
  expect(rec.contracts).toBeGreaterThanOrEqual(BILLED);
  const stats = budgetStats();
  expect(stats.reconcile.waited + stats.importer.waited).toBeGreaterThan(0);
  // And Shopify throttled no one: the budget kept every caller inside the bucket.
  expect(await stack.control.operations(target.domain, { outcome: "throttled" })).toEqual([]);
}, 240_000);

describe("the floors, at the budget itself", () => {
  const SHOP = `floors-${Date.now()}.myshopify.com`;
  const budget = redisShopBudget();
  /**
   * Whether `priority` gets 10 points within 300 ms. The estimate restores 30 points meanwhile;
   * each level below sits at least 60 points under the next floor it tests.
   */
  const grantedAtOnce = (priority: CallPriority) =>
    Promise.race([budget.acquire(SHOP, 10, priority).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 300))]);
  /** Shopify says the standard bucket holds `level` points. */
  const bucketAt = async (level: number) => {
    await forgetShopBudget(SHOP);
    await budget.settle(SHOP, 0, 0, { maximumAvailable: 2000, currentlyAvailable: level, restoreRate: 100 });
  };
  // The connection and the scripts are loaded before anything is timed.
  beforeAll(() => budget.acquire(`warm-${SHOP}`, 0, "interactive"));
  afterAll(() => forgetShopBudget(SHOP));

  it.each([
    // Below billing's floor (10 % of 2,000): only an interactive call goes now.
    [150, { interactive: true, billing: false, importer: false, reconcile: false }],
    // Above billing's, below the importer's (25 %): interactive and billing.
    [400, { interactive: true, billing: true, importer: false, reconcile: false }],
    // Above the importer's, below the reconcile's (40 %).
    [700, { interactive: true, billing: true, importer: true, reconcile: false }],
    [1500, { interactive: true, billing: true, importer: true, reconcile: true }],
  ] as const)("with %i points in the bucket, who may spend now: %o", async (level, expected) => {
    const got: Record<string, boolean> = {};
    for (const priority of ["interactive", "billing", "importer", "reconcile"] as const) {
      await bucketAt(level);
      got[priority] = await grantedAtOnce(priority);
    }
    expect(got).toEqual(expected);
  });

  /**
   * A billing run spending at the limit (4 callers, 10 points a call, `calls` calls in all, on a
   * standard bucket: 2,000 points, 100 a second) and, once it has drained the bucket to billing's
   * floor, one reconcile call of 100 points: how many billing calls had been granted when the
   * reconcile got its points, and in all (callers already waiting may go a few past `calls`).
   */
  async function billingThenReconcile(agingMs: number, calls: number): Promise<{ atReconcile: number; billed: number }> {
    const aging = redisShopBudget(undefined, { agingMs });
    await forgetShopBudget(SHOP);
    await aging.settle(SHOP, 0, 0, { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 });
    let billed = 0;
    let billedAtReconcile = -1;
    const caller = async () => {
      while (billed < calls) {
        await aging.acquire(SHOP, 10, "billing");
        billed++;
      }
    };
    const billing = Promise.all([caller(), caller(), caller(), caller()]);
    // 180 calls take a full bucket down to billing's floor (200); from there billing is served
    // only as fast as the bucket restores (10 calls a second), so it spends at the limit.
    await eventually(async () => billed >= 185, 60_000);
    const reconcile = aging.acquire(SHOP, 100, "reconcile").then(() => (billedAtReconcile = billed));
    await Promise.all([billing, reconcile]);
    return { atReconcile: billedAtReconcile, billed };
  }

  it("strict floors starve a reconcile for the whole billing run; aged, it reserves its points and gets them mid-run", async () => {
    // About 5 s of billing at the limit after the drain.
    const CALLS = 235;
    // Without aging the reconcile (needing 40 % + 100 points) waits until the billing run has ended: starvation, shown.
    const strict = await billingThenReconcile(Number.POSITIVE_INFINITY, CALLS);
    expect(strict.billed).toBeGreaterThanOrEqual(CALLS);
    expect(strict.atReconcile).toBe(strict.billed);
    // Aged after a second of waiting, it is served while billing still has calls to make.
    const aged = await billingThenReconcile(1000, CALLS);
    expect(aged.atReconcile).toBeGreaterThanOrEqual(185);
    expect(aged.atReconcile).toBeLessThan(CALLS);
  }, 120_000);

  it("an aged reservation holds billing back, never an interactive call", async () => {
    const aging = redisShopBudget(undefined, { agingMs: 0 });
    await bucketAt(230);
    // An aged reconcile call of 100 needs billing's floor (200) + 100: it reserves and waits.
    const reconcile = aging.acquire(SHOP, 100, "reconcile");
    // Billing (floor 200 + the 100 reserved + 10) may not spend now; an interactive call may.
    const billingNow = await Promise.race([budget.acquire(SHOP, 10, "billing").then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 300))]);
    expect(billingNow).toBe(false);
    expect(await grantedAtOnce("interactive")).toBe(true);
    await reconcile;
  }, 60_000);

  it("Shopify's first word on a larger bucket rebases the estimate: a Plus shop keeps its head start", async () => {
    // A shop of its own: an earlier test's caller may still be waiting on SHOP's budget.
    const shop = `rebase-${SHOP}`;
    await forgetShopBudget(shop);
    // Unknown shop: the estimate starts at a standard bucket's 2,000 points.
    const first = await budget.acquire(shop, 10, "billing");
    expect(first).toMatchObject({ max: 2000, available: 1990 });
    await budget.settle(shop, 10, 10, { maximumAvailable: 20_000, currentlyAvailable: 19_995, restoreRate: 1_000 }, first);
    const next = await budget.acquire(shop, 10, "billing");
    expect(next).toMatchObject({ max: 20_000, rate: 1_000 });
    // 20,000 less the 10 taken before Shopify's answer and the 10 now (restoring meanwhile).
    expect(next!.available).toBeGreaterThanOrEqual(19_980);
    await forgetShopBudget(shop);
  });

  it("a waiting caller gets its points once the bucket has restored them", async () => {
    await bucketAt(195);
    // Billing needs 210 (its floor 200 + 10): about 150 ms of restoring at 100 a second.
    await expect(budget.acquire(SHOP, 10, "billing")).resolves.toMatchObject({ max: 2000, rate: 100 });
  });
});
