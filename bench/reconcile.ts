// npm run bench:reconcile — the nightly reconcile of a large shop through one bulk operation
// (docs/decisions/097-bulk-reads.md), beside the paged reconcile it replaces, measured in the same run.
//
//   1. The simulator runs in this process (webhooks go nowhere: the reconcile learns that its
//      operation finished by asking Shopify, the fallback of the bulk_operations/finish webhook).
//   2. A large shop gets BENCH_RECONCILE_CONTRACTS (100,000) contracts of two lines each, seeded
//      straight into the simulator; a small shop gets BENCH_RECONCILE_PAGED (600) alike. Both are
//      on the standard plan (2,000 points, 100 a second).
//   3. The large shop's first reconcile (reconcileShop, what the nightly job runs): it pages until
//      the shop shows itself large (250 contracts), then reads the rest through one bulk operation
//      and applies the JSONL in batches of BULK_READ_BATCH with a checkpoint each.
//   4. The baseline: the small shop reconciled by pages only (6 contracts a request), its points
//      per contract measured, and the bucket time the paged reconcile of the large shop would need
//      at the standard restore rate (points x contracts / 100 a second), beside the bulk run's
//      points and wall time.
// Benchmarks are not tests: nothing here asserts a time.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_reconcile";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const LARGE = Number(process.env.BENCH_RECONCILE_CONTRACTS ?? 100_000);
const PAGED = Number(process.env.BENCH_RECONCILE_PAGED ?? 600);
const SIM_PORT = Number(process.env.BENCH_SIMULATOR_PORT ?? 3291);
const STANDARD_RATE = 100;

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.REDIS_PREFIX ??= "bench";
process.env.LOG_LEVEL ??= "error";
process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${SIM_PORT}`;
applyLocalDefaults(process.env);

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  const { startSimulator } = await import("../simulator/server");
  const { env } = await import("../app/env.server");
  const config = env();
  const sim = await startSimulator({
    port: SIM_PORT,
    stateFile: path.join(mkdtempSync(path.join(tmpdir(), "bench-reconcile-")), "state.json"),
    appUrl: "http://127.0.0.1:9",
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
    persistDelayMs: 600_000,
    webhookRetryDelaysMs: [],
  });
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
    const product = await control.call<{ variants: { id: string }[] }>("POST", `${control.shop(domain)}/products`, {
      title: "Coffee",
      variants: [{ price: "12.50" }],
    });
    const line = { variantId: product.variants[0].id, quantity: 1, price: "12.50" };
    for (let done = 0; done < contracts;) {
      const count = Math.min(20_000, contracts - done);
      await control.call("POST", `${control.shop(domain)}/contracts/bulk`, { count, template: { lines: [line, { ...line, quantity: 2 }] } });
      done += count;
    }
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
  const pagedCost = await points(small);
  const perContract = pagedCost.points / paged.contracts;

  started = performance.now();
  const bulk = await reconcileShop(large);
  const bulkMs = performance.now() - started;
  const bulkCost = await points(large);
  const mirrored = await prisma.contract.count({ where: { shop: { domain: large } } });
  const operations = (await control.bulkOperations(large)).started;

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log("");
  console.log(
    `paged (baseline, ${paged.contracts} contracts): ${s(pagedMs)} wall, ${pagedCost.points} points (${perContract.toFixed(1)} a contract), ${pagedCost.throttled} THROTTLED`,
  );
  console.log(
    `  the paged reconcile of ${LARGE} contracts would spend ${Math.round(perContract * LARGE)} points: ${s((perContract * LARGE * 1000) / STANDARD_RATE)} of a standard bucket's restore`,
  );
  console.log(
    `bulk (${LARGE} contracts, via ${bulk.via}): ${s(bulkMs)} wall, ${bulkCost.points} points (the first 250 paged, then ${operations} bulk operation), ${bulkCost.throttled} THROTTLED, ${mirrored} contracts mirrored`,
  );
  console.log(
    `  bucket points: ${bulkCost.points} bulk vs ${Math.round(perContract * LARGE)} paged (${((perContract * LARGE) / Math.max(1, bulkCost.points)).toFixed(0)}x fewer)`,
  );

  await sim.close();
  await prisma.$disconnect();
  redis().disconnect();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
