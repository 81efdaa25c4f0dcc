// npm run bench:boxes — the selection cutoff job (docs/decisions/106-box-cutoff-job.md) settling
// 100,000 box subscribers of one shop against the platform simulator, beside the simulator's bare
// throughput for the same draft-and-commit calls at the same concurrency.
//
//   1. The simulator runs as its own process, webhooks off (this measures the cutoff, not the mirror).
//   2. One shop gets BENCH_BOXES_CONTRACTS (100,000) ACTIVE contracts on a box plan, charged tomorrow
//      (the 3-day cutoff has passed), mirrored into subscriptions_bench_boxes with one INSERT ... SELECT
//      unnest; a published menu with a fallback box; a pick for every tenth subscriber. Plus
//      BENCH_BOXES_BARE (10,000) more contracts for the bare loop.
//   3. One cutoff run (runBoxCutoff, what the hourly job does) at BENCH_BOXES_CONCURRENCY (8) platform
//      edits at once: per contract a contract read, subscriptionContractUpdate, subscriptionDraftLineUpdate,
//      subscriptionDraftCommit, and a box_applications row.
//   4. The bare loop: the same draft-and-commit (the port's updateLine) through the same adapter and
//      concurrency, no database and no contract read (line ids read beforehand, outside the clock).
// Benchmarks are not tests: nothing here asserts a time. The baseline is printed beside the result.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_boxes";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const CONTRACTS = Number(process.env.BENCH_BOXES_CONTRACTS ?? 100_000);
const BARE = Number(process.env.BENCH_BOXES_BARE ?? Math.min(10_000, CONTRACTS));
const CONCURRENCY = Number(process.env.BENCH_BOXES_CONCURRENCY ?? 8);
const SIM_PORT = Number(process.env.BENCH_SIMULATOR_PORT ?? 3192);
const SHOP = "bench-boxes.myshopify.com";
const TOKEN = "shpat_bench_boxes_token";
const BULK = 10_000;

const dir = mkdtempSync(path.join(tmpdir(), "bench-boxes-"));
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

/** `count` box contracts of one customer on the simulator; their gids. */
async function seedSimContracts(count: number, customerId: string, variantId: string, sellingPlanId: string, due: string): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += BULK) {
    const n = Math.min(BULK, count - done);
    const r = await control<{ ids: string[] }>("POST", `/shops/${SHOP}/contracts/bulk`, {
      count: n,
      // An explicit order name: the simulator's default numbers it by counting the shop's contracts.
      template: { customerId, nextBillingDate: due, originOrderName: "#bench", status: "ACTIVE", lines: [{ variantId, quantity: 1, sellingPlanId }] },
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
  const { runBoxCutoff } = await import("../app/domain/customer/box-cutoff.server");
  const { platformFor } = await import("../app/platform/index.server");
  const { closeQueues } = await import("../app/infra/queues.server");

  console.log(`seeding ${CONTRACTS.toLocaleString("en")} + ${BARE.toLocaleString("en")} box contracts on the simulator ...`);
  let t0 = Date.now();
  const installed = await control<{ accessToken: string; scope: string }>("POST", "/shops", { shop: SHOP, accessToken: TOKEN });
  const customer = await control<{ id: string }>("POST", `/shops/${SHOP}/customers`, {});
  const product = await control<{ variants: { id: string }[] }>("POST", `/shops/${SHOP}/products`, {
    title: "Snacks",
    variants: [
      { title: "Crisps", price: "3.00" },
      { title: "Figs", price: "5.00" },
    ],
  });
  const v = product.variants.map((x) => x.id);
  const group = await control<{ id: string; sellingPlans: { id: string }[] }>("POST", `/shops/${SHOP}/selling-plan-groups`, {
    name: "Snack box",
    plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
    variantIds: [v[0]],
  });
  const plan = group.sellingPlans[0].id;
  const charge = new Date(Date.now() + 86_400_000);
  const period = charge.toISOString().slice(0, 7);
  const engineIds = await seedSimContracts(CONTRACTS, customer.id, v[0], plan, charge.toISOString());
  const bareIds = await seedSimContracts(BARE, customer.id, v[0], plan, charge.toISOString());
  console.log(`  simulator seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  t0 = Date.now();
  await prisma.shop.deleteMany({ where: { domain: SHOP } });
  await recordInstallation(SHOP, installed.accessToken, installed.scope);
  await setAppPlan(SHOP, "PRO");
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP }, select: { id: true } });
  const local = await prisma.sellingPlanGroup.create({
    data: {
      shopId: shop.id,
      groupGid: group.id,
      name: "Snack box",
      cadenceLabel: "Every month",
      interval: "MONTH",
      intervalCount: 1,
      billingLabel: "Billed monthly",
      discountLabel: "",
      sellingPlans: { create: [{ sellingPlanGid: plan, name: "Monthly box" }] },
    },
  });
  const bundle = await prisma.bundle.create({
    data: { shopId: shop.id, groupId: local.id, title: "Snack box", kind: "BUILD_A_BOX", selectionCutoffDays: 3, boxSizeMin: 2, boxSizeMax: 2 },
  });
  await prisma.bundleBox.create({
    data: {
      bundleId: bundle.id,
      period,
      published: true,
      publishedAt: new Date(),
      items: {
        create: v.map((variantGid, position) => ({ variantGid, productTitle: "Snacks", priceCents: 300, maxQuantity: 2, fallbackQuantity: 1, position })),
      },
    },
  });
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await db.query(
    `INSERT INTO contracts (id, shop_id, contract_gid, status, next_billing_at, customer_gid, currency_code, charge_amount_cents,
       billing_interval, billing_interval_count, created_by_service, revision, created_at, updated_at, mirrored_at, selling_plan_group_gid)
     SELECT 'bx' || lpad(n::text, 9, '0'), $1, gid, 'ACTIVE', $2, $3, 'USD', 900, 'MONTH', 1, false, 1, now(), now(), now(), $5
     FROM unnest($4::text[]) WITH ORDINALITY AS t(gid, n)`,
    [shop.id, charge, customer.id, engineIds, group.id],
  );
  // Every tenth subscriber picked two Figs.
  await db.query(
    `INSERT INTO box_selections (id, shop_id, contract_gid, period, items, updated_at, created_at)
     SELECT 'bs' || lpad(n::text, 9, '0'), $1, gid, $2, $3::jsonb, now(), now()
     FROM unnest($4::text[]) WITH ORDINALITY AS t(gid, n) WHERE n % 10 = 0`,
    [shop.id, period, JSON.stringify([{ variant_id: v[1], quantity: 2 }]), engineIds],
  );
  await db.query("ANALYZE contracts; ANALYZE box_selections");
  await db.end();
  console.log(`  mirror seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  console.log(`\nsettling ${CONTRACTS.toLocaleString("en")} boxes past the cutoff (concurrency ${CONCURRENCY}) ...`);
  t0 = Date.now();
  const report = await runBoxCutoff(SHOP, { concurrency: CONCURRENCY });
  const engineMs = Date.now() - t0;
  t0 = Date.now();
  const again = await runBoxCutoff(SHOP, { concurrency: CONCURRENCY });
  const againMs = Date.now() - t0;

  // The bare loop: line ids read first (not timed), then draft → line update → commit only.
  const platform = await platformFor(SHOP);
  const lines: [string, string][] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bareIds.length) {
        const gid = bareIds[next++];
        const c = await platform.getContract(gid);
        lines.push([gid, c!.lines[0].id]);
      }
    }),
  );
  next = 0;
  t0 = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < lines.length) {
        const [gid, line] = lines[next++];
        await platform.updateLine(gid, line, { customAttributes: [{ key: "_box_period", value: period }] });
      }
    }),
  );
  const bareMs = Date.now() - t0;

  console.log("\nresults");
  console.log(
    `  cutoff job: ${report.applied.toLocaleString("en")} applied (${report.picks.toLocaleString("en")} picks, ${report.fallbacks.toLocaleString("en")} fallbacks), ${report.refused} refused, ${report.deferred} deferred`,
  );
  console.log(`              wall ${(engineMs / 1000).toFixed(1)} s, ${rate(report.applied, engineMs)} contracts/s`);
  console.log(
    `  bare loop:  ${lines.length.toLocaleString("en")} draft-and-commit edits, wall ${(bareMs / 1000).toFixed(1)} s, ${rate(lines.length, bareMs)} contracts/s   <- baseline`,
  );
  console.log(`  job / baseline: ${(report.applied / engineMs / (lines.length / bareMs)).toFixed(2)}x (target >= 0.5x)`);
  console.log(`  re-run: ${again.applied} applied in ${(againMs / 1000).toFixed(1)} s (nothing twice)`);
  await prisma.$disconnect();
  await closeQueues();
}

try {
  await main();
} finally {
  stopSim();
}
process.exit(0);
