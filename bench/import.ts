// npm run bench:import: the migration importer on 10,000 rows (one contract each, a new customer
// each) into the platform simulator, beside the simulator's bare throughput for the same mutation
// (subscriptionContractAtomicCreate sent straight through the GraphQL client, same concurrency,
// no customer lookup, no ledger) in the same run. The importer works in batches of 25 contracts
// (docs/decisions/087-import-throughput.md): one aliased customer lookup and one customerSet
// request per batch, then one atomic create per contract, and one ledger claim and one settle
// transaction per batch; so a row costs the bare mutation plus about a twelfth of a round trip.
// Benchmarks are not tests: nothing asserts a time. The load average is printed beside the
// figures, since the machine is shared.
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const BARE = Number(process.env.BENCH_BARE_ROWS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const SIM_PORT = Number(process.env.BENCH_SIM_PORT ?? 38_100);
const SHOP = `bench-import-${Date.now().toString(36)}.myshopify.com`;

process.env.DATABASE_URL = `${PG_BASE}/${process.env.BENCH_DB ?? "subscriptions_bench_import"}`;
process.env.REDIS_PREFIX ??= "bench-import";
process.env.LOG_LEVEL ??= "error";
process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${SIM_PORT}`;
applyLocalDefaults(process.env);

await prepareBenchDatabase(process.env.DATABASE_URL);
const { env } = await import("../app/env.server");
const { prisma } = await import("../app/db.server");
const { startSimulator } = await import("../simulator/server");
const { SimulatorControl } = await import("../simulator/control-client");
const { recordInstallation } = await import("../app/domain/shop/lifecycle.server");
const { adminGraphql } = await import("../app/platform/graphql/client.server");
const { CONTRACT_ATOMIC_CREATE, contractAtomicCreateVariables } = await import("../app/platform/graphql/contract-atomic-create");
const { runImport } = await import("../app/domain/imports/run.server");
const { createImport } = await import("../app/domain/imports/start.server");
const { migrationCsv, migrationRow } = await import("../tests/support/migration-csv");
const { ensurePlatformRouting } = await import("../app/platform/index.server");

const config = env();
const sim = await startSimulator({
  port: SIM_PORT,
  stateFile: path.join(mkdtempSync(path.join(tmpdir(), "bench-import-")), "sim.json"),
  // Webhooks go nowhere here: the bench measures the import, not the mirror.
  appUrl: "http://127.0.0.1:9",
  apiKey: config.SHOPIFY_API_KEY,
  apiSecret: config.SHOPIFY_API_SECRET,
  webhookRetryDelaysMs: [],
});
ensurePlatformRouting();
const control = new SimulatorControl(sim.url);
const installed = await control.installShop({ shop: SHOP });
await recordInstallation(SHOP, installed.accessToken, installed.scope);
const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const product = await control.call<{ variantIds: string[] }>("POST", `${control.shop(SHOP)}/products`, {
  title: "House Blend",
  variants: [{ title: "1 kg", price: "30.00" }],
});
const variantId = product.variantIds[0];

async function pool(n: number, fn: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

// Baseline: the bare mutation, one customer, the same concurrency.
const customer = await control.call<{ id: string }>("POST", `${control.shop(SHOP)}/customers`, { email: "bare@example.com", paymentMethod: null });
const address = {
  firstName: "Ada",
  lastName: "Bare",
  company: null,
  address1: "1 Harbor Street",
  address2: null,
  city: "Toronto",
  province: null,
  provinceCode: "ON",
  zip: "M5V",
  country: null,
  countryCode: "CA",
  phone: null,
};
let t0 = performance.now();
await pool(BARE, async () => {
  await adminGraphql(
    SHOP,
    installed.accessToken,
    CONTRACT_ATOMIC_CREATE,
    contractAtomicCreateVariables({
      customerId: customer.id,
      currencyCode: "USD",
      status: "ACTIVE",
      nextBillingDate: "2031-01-01T12:00:00Z",
      interval: "MONTH",
      intervalCount: 1,
      paymentMethodId: null,
      shippingAddress: address,
      lines: [{ variantId, quantity: 1, priceAmount: "27.00", sellingPlanId: null }],
      attributes: { k: "v" },
    }),
  );
});
const bareRate = BARE / ((performance.now() - t0) / 1000);

// The importer on ROWS rows.
const rows = Array.from({ length: ROWS }, (_, i) => migrationRow(i, { variantId }));
const csv = migrationCsv(rows);
writeFileSync(path.join(tmpdir(), "bench-import.csv"), csv);
const t1 = performance.now();
const { id } = await createImport(shop.id, { fileName: "bench.csv", text: csv });
const dryRunSeconds = (performance.now() - t1) / 1000;
await prisma.migrationImport.update({ where: { id }, data: { status: "queued", activeSlot: "active" } });
t0 = performance.now();
const status = await runImport(id, { concurrency: CONCURRENCY });
const seconds = (performance.now() - t0) / 1000;
const created = await prisma.migrationImportItem.count({ where: { importId: id, status: "created" } });

console.log(`\nmigration import, ${ROWS.toLocaleString("en-US")} rows, concurrency ${CONCURRENCY} (status ${status}, ${created} created)`);
console.log(`  importer                              ${(ROWS / seconds).toFixed(0).padStart(6)} rows/s  (${seconds.toFixed(1)} s)`);
console.log(`  dry run (validation, customer lookups)        ${dryRunSeconds.toFixed(1)} s (not in the figure above)`);
console.log(`  bare subscriptionContractAtomicCreate ${bareRate.toFixed(0).padStart(6)} calls/s (baseline, ${BARE} calls)`);
console.log(`  importer / bare                       ${((ROWS / seconds / bareRate) * 100).toFixed(0).padStart(5)} %`);
console.log(
  `  load average (1, 5, 15 min)           ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} on ${availableParallelism()} cores`,
);
await sim.close();
await prisma.$disconnect();
process.exit(0);
