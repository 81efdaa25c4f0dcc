// npm run bench:reconcile — the nightly reconcile of a large shop through one bulk operation
// (docs/decisions/097-bulk-reads.md), beside the paged reconcile it replaces, measured in the same run.
//
//   1. The simulator runs as its own process (bench/simulator.ts: the app and the simulator each get
//      a core), with webhooks off: the reconcile learns that its operation finished by asking
//      Shopify, the fallback of the bulk_operations/finish webhook.
//   2. A large shop gets BENCH_RECONCILE_CONTRACTS (100,000) contracts of two lines each, seeded
//      straight into the simulator in bulk calls of 10,000 (seedSimContracts: one customer, a named
//      origin order, no webhooks; docs/decisions/166-bench-figures.md); a small shop gets
//      BENCH_RECONCILE_PAGED (600) alike. Both are on the standard plan (2,000 points, 100 a second).
//   3. The large shop's first reconcile (reconcileShop, what the nightly job runs): it pages until
//      the shop shows itself large (250 contracts), then reads the rest through one bulk operation
//      and applies the JSONL in batches of BULK_READ_BATCH with a checkpoint each.
//   4. The baseline: the small shop reconciled by pages only (6 contracts a request), its points
//      per contract measured, and the bucket time the paged reconcile of the large shop would need
//      at the standard restore rate (points x contracts / 100 a second), beside the bulk run's
//      points and wall time. Each figure is printed with the machine's load average.
// Benchmarks are not tests: nothing here asserts a time.
import { loadavg } from "node:os";
import { prepareBenchDatabase } from "./database";
import { perSecond, seedSimContracts, startBenchSimulator } from "./simulator";

const LARGE = Number(process.env.BENCH_RECONCILE_CONTRACTS ?? 100_000);
const PAGED = Number(process.env.BENCH_RECONCILE_PAGED ?? 600);
const STANDARD_RATE = 100;
// The simulator's state file is not rewritten during the run (a 100,000-contract state is a large file).
const sim = startBenchSimulator("subscriptions_bench_reconcile", Number(process.env.BENCH_SIMULATOR_PORT ?? 3291), "reconcile", { persistMs: 3_600_000 });
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`;

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  await sim.ready();
  const { SimulatorControl } = await import("../simulator/control-client");
  const { prisma } = await import("../app/db.server");
  const { redis } = await import("../app/infra/redis.server");
  const { recordInstallation } = await import("../app/domain/shop/lifecycle.server");
  const { reconcileShop } = await import("../app/domain/subscriptions/reconcile.server");
  const control = new SimulatorControl(sim.url);
  const run = Date.now().toString(36);

  async function shopWith(name: string, contracts: number) {
    const domain = `bench-reconcile-${run}-${name}.myshopify.com`;
    const installed = await control.installShop({ shop: domain });
    await recordInstallation(domain, installed.accessToken, installed.scope);
    const customer = await control.call<{ id: string }>("POST", `${control.shop(domain)}/customers`, {});
    const product = await control.call<{ variants: { id: string }[] }>("POST", `${control.shop(domain)}/products`, {
      title: "Coffee",
      variants: [{ price: "12.50" }],
    });
    const line = { variantId: product.variants[0].id, quantity: 1, price: "12.50" };
    const t = performance.now();
    await seedSimContracts(sim, domain, contracts, {
      customerId: customer.id,
      nextBillingDate: new Date(Date.now() + 86_400_000).toISOString(),
      lines: [line, { ...line, quantity: 2 }],
    });
    console.log(`  ${contracts} contracts seeded on the simulator in ${((performance.now() - t) / 1000).toFixed(1)} s (${load()})`);
    await control.rateLimit(domain, { plan: "standard" });
    return domain;
  }
  const points = async (domain: string) => await control.call<{ points: number; throttled: number }>("GET", `${control.shop(domain)}/rate-limit`);

  console.log(`seeding ${PAGED} contracts (paged baseline) and ${LARGE} contracts (bulk) on the simulator ...`);
  const small = await shopWith("paged", PAGED);
  const large = await shopWith("bulk", LARGE);

  let started = performance.now();
  const paged = await reconcileShop(small, { via: "pages" });
  const pagedMs = performance.now() - started;
  const pagedLoad = load();
  const pagedCost = await points(small);
  const perContract = pagedCost.points / paged.contracts;

  started = performance.now();
  const bulk = await reconcileShop(large);
  const bulkMs = performance.now() - started;
  const bulkLoad = load();
  const bulkCost = await points(large);
  const mirrored = await prisma.contract.count({ where: { shop: { domain: large } } });
  const operations = (await control.bulkOperations(large)).started;
  // The bulk read alone (from its start to its last checkpoint), without the paged prelude.
  const read = await prisma.bulkRead.findFirstOrThrow({ where: { shop: { domain: large }, purpose: "reconcile" } });
  const readMs = (read.finishedAt?.getTime() ?? Date.now()) - read.startedAt.getTime();

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log("");
  console.log(
    `paged (baseline, ${paged.contracts} contracts): ${s(pagedMs)} wall, ${pagedCost.points} points (${perContract.toFixed(1)} a contract), ${pagedCost.throttled} THROTTLED (${pagedLoad})`,
  );
  console.log(
    `  the paged reconcile of ${LARGE} contracts would spend ${Math.round(perContract * LARGE)} points: ${s((perContract * LARGE * 1000) / STANDARD_RATE)} of a standard bucket's restore`,
  );
  console.log(
    `bulk (${LARGE} contracts, via ${bulk.via}): ${s(bulkMs)} wall, ${perSecond(mirrored, bulkMs)} contracts/s, ${bulkCost.points} points (the first 250 paged, then ${operations} bulk operation), ${bulkCost.throttled} THROTTLED, ${mirrored} contracts mirrored (${bulkLoad})`,
  );
  console.log(`  the bulk read alone: ${read.rootsApplied} contracts in ${s(readMs)}, ${perSecond(read.rootsApplied, readMs)} contracts/s applied`);
  console.log(
    `  bucket points: ${bulkCost.points} bulk vs ${Math.round(perContract * LARGE)} paged (${((perContract * LARGE) / Math.max(1, bulkCost.points)).toFixed(0)}x fewer)`,
  );

  await prisma.$disconnect();
  redis().disconnect();
}

try {
  await main();
} finally {
  sim.stop();
}
process.exit(0);
