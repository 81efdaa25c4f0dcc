// npm run bench:billing — the billing engine charging 100,000 due contracts of one shop against
// the platform simulator, beside the simulator's own throughput for the same mutation.
//
//   1. The simulator runs as its own process (as in dev), with webhooks off (a shopify.app.toml
//      with no subscriptions: this measures charging, not the outcome path) and its state file
//      written once a minute instead of after every burst.
//   2. One shop gets BENCH_BILLING_CONTRACTS (100,000) due contracts on the simulator, mirrored
//      into the bench database subscriptions_bench_billing with one INSERT ... SELECT unnest,
//      plus BENCH_BILLING_BARE (20,000) more contracts for the bare loop.
//   3. One billing run (runBilling, what `npm run cli -- billing run` does): due scan in keyset
//      pages, a cycle + attempt claim per contract, subscriptionBillingAttemptCreate with its
//      idempotency key, at BILLING_SHOP_CONCURRENCY calls at once (default 4).
//   4. The bare loop: the same mutation through the same adapter, the same concurrency, no
//      database: the simulator's own ceiling.
// Benchmarks are not tests: nothing here asserts a time. The baseline is printed beside the result.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_billing";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const CONTRACTS = Number(process.env.BENCH_BILLING_CONTRACTS ?? 100_000);
const BARE = Number(process.env.BENCH_BILLING_BARE ?? Math.min(20_000, CONTRACTS));
const SIM_PORT = Number(process.env.BENCH_SIMULATOR_PORT ?? 3191);
const SHOP = "bench-billing.myshopify.com";
const TOKEN = "shpat_bench_billing_token";
const BULK = 10_000;

const dir = mkdtempSync(path.join(tmpdir(), "bench-billing-"));
const toml = path.join(dir, "no-webhooks.toml");
writeFileSync(toml, '[webhooks]\napi_version = "2026-10"\n');

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.REDIS_PREFIX ??= "bench";
process.env.LOG_LEVEL ??= "error";
process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${SIM_PORT}`;
applyLocalDefaults(process.env);

const simUrl = process.env.SHOPIFY_SIMULATOR_URL;
const sim = spawn(process.execPath, ["--import", "tsx", "simulator/main.ts"], {
  env: {
    ...process.env,
    SIMULATOR_PORT: String(SIM_PORT),
    SIMULATOR_STATE_FILE: path.join(dir, "simulator.json"),
    SIMULATOR_PERSIST_MS: "60000",
    SHOPIFY_APP_TOML: toml,
    LOG_LEVEL: "error",
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const stopSim = () => sim.exitCode === null && sim.kill("SIGKILL");
process.on("exit", stopSim);

async function control<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${simUrl}/_sim${p}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`simulator ${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function waitForSimulator(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${simUrl}/_sim/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the simulator did not start");
}

/** `count` due contracts of one customer on the simulator; their gids. */
async function seedSimContracts(count: number, customerId: string, variantId: string, due: string): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += BULK) {
    const n = Math.min(BULK, count - done);
    const r = await control<{ ids: string[] }>("POST", `/shops/${SHOP}/contracts/bulk`, {
      count: n,
      // An explicit order name: the simulator's default numbers it by counting the shop's contracts.
      template: { customerId, nextBillingDate: due, originOrderName: "#bench", lines: [{ variantId, quantity: 1 }] },
      webhooks: false,
    });
    ids.push(...r.ids);
  }
  return ids;
}

const rate = (n: number, ms: number) => (n / (ms / 1000)).toFixed(0);

async function main(): Promise<void> {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  await waitForSimulator();
  const { prisma } = await import("../app/db.server");
  const { recordInstallation, setAppPlan } = await import("../app/domain/shop/lifecycle.server");
  const { runBilling } = await import("../app/domain/renewals/charge.server");
  const { fixedClock } = await import("../app/domain/renewals/clock.server");
  const { platformFor } = await import("../app/platform/index.server");
  const { env } = await import("../app/env.server");
  const { closeQueues } = await import("../app/infra/queues.server");
  const concurrency = env().BILLING_SHOP_CONCURRENCY;

  console.log(`seeding ${CONTRACTS.toLocaleString("en")} + ${BARE.toLocaleString("en")} due contracts on the simulator ...`);
  let t0 = Date.now();
  const installed = await control<{ accessToken: string; scope: string }>("POST", "/shops", { shop: SHOP, accessToken: TOKEN });
  const customer = await control<{ id: string }>("POST", `/shops/${SHOP}/customers`, {});
  const product = await control<{ variants: { id: string }[] }>("POST", `/shops/${SHOP}/products`, { title: "Coffee", variants: [{ price: "24.00" }] });
  const due = new Date(Date.now() - 3600_000).toISOString();
  const engineIds = await seedSimContracts(CONTRACTS, customer.id, product.variants[0].id, due);
  const bareIds = await seedSimContracts(BARE, customer.id, product.variants[0].id, due);
  console.log(`  simulator seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  t0 = Date.now();
  await prisma.shop.deleteMany({ where: { domain: SHOP } });
  await recordInstallation(SHOP, installed.accessToken, installed.scope);
  await setAppPlan(SHOP, "PRO");
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP }, select: { id: true } });
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await db.query(
    `INSERT INTO contracts (id, shop_id, contract_gid, status, next_billing_at, customer_gid, currency_code, charge_amount_cents,
       billing_interval, billing_interval_count, created_by_service, revision, created_at, updated_at, mirrored_at)
     SELECT 'bb' || lpad(n::text, 9, '0'), $1, gid, 'ACTIVE', $2, $3, 'USD', 2400, 'MONTH', 1, true, 1, now(), now(), now()
     FROM unnest($4::text[]) WITH ORDINALITY AS t(gid, n)`,
    [shop.id, due, customer.id, engineIds],
  );
  await db.query("ANALYZE contracts");
  await db.end();
  console.log(`  mirror seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // The engine: one run, as the scheduler's job or the CLI makes it.
  console.log(`\ncharging ${CONTRACTS.toLocaleString("en")} due contracts (BILLING_SHOP_CONCURRENCY=${concurrency}) ...`);
  t0 = Date.now();
  const summary = await runBilling(SHOP, { clock: fixedClock(new Date()) });
  const engineMs = Date.now() - t0;

  // The bare loop: the same mutation, same adapter, same concurrency, no database.
  const platform = await platformFor(SHOP);
  let next = 0;
  t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bareIds.length) {
        const gid = bareIds[next++];
        await platform.createBillingAttempt(gid, { idempotencyKey: `bare-${gid}`, cycleDate: due });
      }
    }),
  );
  const bareMs = Date.now() - t0;
  const made = (await control<unknown[]>("GET", `/shops/${SHOP}/billing-attempts`)).length;

  console.log("\nresults");
  console.log(
    `  engine:    ${summary.charged.length.toLocaleString("en")} charged (${summary.notCharged.length} not charged) of ${summary.due.toLocaleString("en")} due`,
  );
  console.log(`             wall ${(engineMs / 1000).toFixed(1)} s, ${rate(summary.charged.length, engineMs)} attempts/s`);
  console.log(
    `  bare loop: ${bareIds.length.toLocaleString("en")} subscriptionBillingAttemptCreate calls, wall ${(bareMs / 1000).toFixed(1)} s, ${rate(bareIds.length, bareMs)} attempts/s   <- baseline`,
  );
  console.log(`  engine / baseline: ${((summary.charged.length / engineMs / (bareIds.length / bareMs)) * 100).toFixed(0)}%`);
  console.log(
    `  simulator holds ${made.toLocaleString("en")} billing attempts (expected ${(summary.charged.length + bareIds.length).toLocaleString("en")}: none charged twice)`,
  );
  await prisma.$disconnect();
  await closeQueues();
}

try {
  await main();
} finally {
  stopSim();
}
process.exit(0);
