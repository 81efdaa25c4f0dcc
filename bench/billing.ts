// npm run bench:billing — the billing engine charging one shop's due contracts against the
// simulator's real cost bucket (docs/decisions/095, 096), once on a standard shop (2,000 points,
// 100 a second) and once on a Plus shop (20,000 points, 1,000 a second), beside the floor the
// bucket allows.
//
//   1. The simulator runs as its own process (as in dev), with webhooks off (a shopify.app.toml
//      with no subscriptions: this measures charging, not the outcome path).
//   2. Each shop gets its due contracts on the simulator (BENCH_BILLING_STANDARD, 600: about 40 s
//      of a standard bucket; BENCH_BILLING_PLUS, 4,000: about 20 s of a Plus bucket, where the
//      machine, not the bucket, may be the limit), mirrored into the bench database with one
//      INSERT ... SELECT unnest. Each plan's run takes under a minute on an idle 2-core machine.
//   3. One billing run per shop (runBilling, what `npm run cli -- billing run` does), while an
//      admin page's Shopify read (the contract's payment method, 3 points) is made twice a second
//      at interactive priority; its latencies give the p99.
//   4. The floor: the points the run and the admin reads spent (10 per attempt, their actual
//      cost), less the bucket's head start (its size), over the restore rate. THROTTLED answers
//      are counted by the simulator's bucket.
//   5. The machine's ceiling, measured in the same run at the concurrency each plan's run used
//      (billingConcurrency: 4 for a standard shop, 15 for a Plus one; docs/decisions/165), on an
//      enterprise shop's bucket (BENCH_BILLING_CEILING calls each): the simulator alone (the same
//      mutation POSTed straight to it: no adapter, no budget, no database) and the app's adapter
//      without the budget or the database. A plan's floor is the larger of the bucket's and the
//      adapter's; the simulator's own figure says how much of that the simulator takes.
//   6. Each figure is printed with the machine's load average (1, 5, 15 minutes) when it was taken:
//      the machine is shared, and a ceiling measured at another load is not the run's.
// Benchmarks are not tests: nothing here asserts a time. The floor is printed beside the result.
import { loadavg } from "node:os";
import { prepareBenchDatabase } from "./database";
import { mirrorContracts, seedSimContracts, startBenchSimulator } from "./simulator";

const PLANS = [
  { plan: "standard", contracts: Number(process.env.BENCH_BILLING_STANDARD ?? 600) },
  { plan: "plus", contracts: Number(process.env.BENCH_BILLING_PLUS ?? 4_000) },
] as const;
/** subscriptionBillingAttemptCreate's cost: a mutation, 10 points (docs/decisions/095). */
const ATTEMPT_COST = 10;
const ADMIN_READ_EVERY_MS = 500;
const CEILING_CALLS = Number(process.env.BENCH_BILLING_CEILING ?? 1_000);

const sim = startBenchSimulator("subscriptions_bench_billing", Number(process.env.BENCH_SIMULATOR_PORT ?? 3191), "billing");
const control = sim.control;
const stopSim = sim.stop;

const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};

interface RateLimitView {
  maximumAvailable: number;
  restoreRate: number;
  charged: number;
  throttled: number;
}

async function main(): Promise<void> {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  await sim.ready();
  const { prisma } = await import("../app/db.server");
  const { recordInstallation, setAppPlan } = await import("../app/domain/shop/lifecycle.server");
  const { runBilling } = await import("../app/domain/renewals/charge.server");
  const { fixedClock } = await import("../app/domain/renewals/clock.server");
  const { platformFor } = await import("../app/platform/index.server");
  const { budgetStats, forgetShopBudget, resetBudgetStats } = await import("../app/platform/budget.server");
  const { env } = await import("../app/env.server");
  const { closeQueues } = await import("../app/infra/queues.server");
  const { billingConcurrency } = await import("../app/domain/renewals/charge.server");
  const { BILLING_SHOP_CONCURRENCY, BILLING_SHOP_CONCURRENCY_MAX } = env();
  const lines: string[] = [];
  const runs: { plan: string; charged: number; wallMs: number; bucketFloorS: number; concurrency: number }[] = [];

  for (const { plan, contracts } of PLANS) {
    const shopDomain = `bench-billing-${plan}.myshopify.com`;
    console.log(`\n${plan}: seeding ${contracts.toLocaleString("en")} due contracts ...`);
    const installed = await control<{ accessToken: string; scope: string }>("POST", "/shops", { shop: shopDomain, accessToken: `shpat_bench_${plan}_token` });
    const customer = await control<{ id: string }>("POST", `/shops/${shopDomain}/customers`, {});
    const product = await control<{ variants: { id: string }[] }>("POST", `/shops/${shopDomain}/products`, { title: "Coffee", variants: [{ price: "24.00" }] });
    const due = new Date(Date.now() - 3600_000).toISOString();
    const ids = await seedSimContracts(sim, shopDomain, contracts, {
      customerId: customer.id,
      nextBillingDate: due,
      lines: [{ variantId: product.variants[0].id, quantity: 1 }],
    });

    await prisma.shop.deleteMany({ where: { domain: shopDomain } });
    await recordInstallation(shopDomain, installed.accessToken, installed.scope);
    await setAppPlan(shopDomain, "PRO");
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: shopDomain }, select: { id: true } });
    await mirrorContracts(ids, {
      idPrefix: plan.slice(0, 2),
      shopId: shop.id,
      nextBillingAt: new Date(due),
      customerGid: customer.id,
      chargeCents: 2400,
      createdByService: true,
    });

    // A fresh, full bucket at the plan's size, and no estimate left from an earlier run.
    await control("PUT", `/shops/${shopDomain}/rate-limit`, { plan, currentlyAvailable: null });
    await forgetShopBudget(shopDomain);
    resetBudgetStats();
    const start = await control<RateLimitView>("GET", `/shops/${shopDomain}/rate-limit`);

    const concurrency = billingConcurrency({ rate: start.restoreRate }, BILLING_SHOP_CONCURRENCY, BILLING_SHOP_CONCURRENCY_MAX);
    console.log(`${plan}: charging (${concurrency} calls at once once the bucket is known) with an admin read every ${ADMIN_READ_EVERY_MS} ms ...`);
    const t0 = Date.now();
    let running = true;
    const latencies: number[] = [];
    const admin = (async () => {
      const port = await platformFor(shopDomain);
      while (running) {
        const t = performance.now();
        await port.getPaymentMethod(ids[latencies.length % ids.length]);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, ADMIN_READ_EVERY_MS));
      }
    })();
    const summary = await runBilling(shopDomain, { clock: fixedClock(new Date()) });
    const wallMs = Date.now() - t0;
    running = false;
    await admin;
    const end = await control<RateLimitView>("GET", `/shops/${shopDomain}/rate-limit`);
    const waits = budgetStats();

    // The floor: what the bucket must restore of the points spent, at its rate.
    const readCost = 3;
    const spent = summary.charged.length * ATTEMPT_COST + latencies.length * readCost;
    const floorS = Math.max(0, spent - start.maximumAvailable) / start.restoreRate;
    runs.push({ plan, charged: summary.charged.length, wallMs, bucketFloorS: floorS, concurrency });
    const calls = end.charged - start.charged + end.throttled - start.throttled;
    const throttled = end.throttled - start.throttled;
    lines.push(
      `  ${plan.padEnd(8)} ${summary.charged.length.toLocaleString("en")} charged (${summary.notCharged.length} not), bucket ${start.maximumAvailable.toLocaleString("en")} @ ${start.restoreRate}/s`,
      `           wall ${(wallMs / 1000).toFixed(1)} s   floor ${floorS.toFixed(1)} s   <- (${spent.toLocaleString("en")} points - ${start.maximumAvailable.toLocaleString("en")} head start) / ${start.restoreRate}/s   (${load()})`,
      `           ratio ${(wallMs / 1000 / floorS).toFixed(2)}x (target <= 1.15x)   THROTTLED ${throttled} of ${calls.toLocaleString("en")} calls (${((throttled / Math.max(1, calls)) * 100).toFixed(2)} %, target < 1 %)`,
      `           budget waits: billing ${waits.billing.waited} of ${waits.billing.calls} calls (${(waits.billing.waitedMs / 1000).toFixed(1)} s in all), admin ${waits.interactive.waited} of ${waits.interactive.calls}`,
      `           admin read p99 ${percentile(latencies, 99).toFixed(0)} ms, p50 ${percentile(latencies, 50).toFixed(0)} ms over ${latencies.length} reads (target p99 < 1,000 ms)`,
    );
  }

  // The machine's ceilings: the same calls, unbudgeted, on a bucket too big to matter, at each
  // run's concurrency: the simulator alone, then through the app's adapter.
  const ceilingShop = "bench-billing-ceiling.myshopify.com";
  const ceilingInstall = await control<{ accessToken: string }>("POST", "/shops", { shop: ceilingShop, accessToken: "shpat_bench_ceiling_token" });
  await control("PUT", `/shops/${ceilingShop}/rate-limit`, { plan: "enterprise", currentlyAvailable: null });
  const ceilingCustomer = await control<{ id: string }>("POST", `/shops/${ceilingShop}/customers`, {});
  const ceilingProduct = await control<{ variants: { id: string }[] }>("POST", `/shops/${ceilingShop}/products`, {
    title: "Coffee",
    variants: [{ price: "24.00" }],
  });
  const ceilingDue = new Date(Date.now() - 3600_000).toISOString();
  const { createGraphqlAdapter } = await import("../app/platform/graphql/adapter.server");
  const { BILLING_ATTEMPT_CREATE, billingAttemptCreateVariables } = await import("../app/platform/graphql/billing-attempt-create");
  const { SHOPIFY_API_VERSION } = await import("../app/platform/api-version");
  const bare = createGraphqlAdapter(ceilingShop, ceilingInstall.accessToken, { budget: null });
  const simulatorUrl = `${sim.url}/shops/${ceilingShop}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  /** Attempts a second over CEILING_CALLS fresh contracts, `concurrency` at a time. */
  async function ceiling(concurrency: number, call: (gid: string) => Promise<unknown>): Promise<{ perS: number; load: string }> {
    const gids = await seedSimContracts(sim, ceilingShop, CEILING_CALLS, {
      customerId: ceilingCustomer.id,
      nextBillingDate: ceilingDue,
      lines: [{ variantId: ceilingProduct.variants[0].id, quantity: 1 }],
    });
    let next = 0;
    const c0 = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < gids.length) await call(gids[next++]);
      }),
    );
    return { perS: gids.length / ((Date.now() - c0) / 1000), load: load() };
  }
  const attempt = (gid: string) => ({ idempotencyKey: `bare-${gid}`, cycleDate: ceilingDue });
  const ceilings = new Map<number, { simulator: { perS: number; load: string }; adapter: { perS: number; load: string } }>();
  for (const c of new Set(runs.map((r) => r.concurrency))) {
    const simulator = await ceiling(c, async (gid) => {
      const res = await fetch(simulatorUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": ceilingInstall.accessToken },
        body: JSON.stringify({ query: BILLING_ATTEMPT_CREATE, variables: billingAttemptCreateVariables(gid, attempt(gid)) }),
      });
      await res.json();
    });
    const adapter = await ceiling(c, (gid) => bare.createBillingAttempt(gid, attempt(gid)));
    ceilings.set(c, { simulator, adapter });
  }

  console.log("\nresults");
  for (const line of lines) console.log(line);
  for (const [c, { simulator, adapter }] of ceilings) {
    console.log(`  machine at ${c} calls at once (${CEILING_CALLS} calls each, no budget, no database):`);
    console.log(
      `           simulator alone ${simulator.perS.toFixed(0)} attempts/s (${simulator.load})   app adapter ${adapter.perS.toFixed(0)} attempts/s (${adapter.load})`,
    );
  }
  for (const r of runs) {
    const { simulator, adapter } = ceilings.get(r.concurrency)!;
    const machineFloorS = r.charged / adapter.perS;
    const floorS = Math.max(r.bucketFloorS, machineFloorS);
    console.log(
      `  ${r.plan.padEnd(8)} floor max(bucket ${r.bucketFloorS.toFixed(1)} s, machine ${machineFloorS.toFixed(1)} s; the simulator alone ${(r.charged / simulator.perS).toFixed(1)} s): ratio ${(r.wallMs / 1000 / floorS).toFixed(2)}x`,
    );
  }
  await prisma.$disconnect();
  await closeQueues();
}

try {
  await main();
} finally {
  stopSim();
}
process.exit(0);
