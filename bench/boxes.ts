// npm run bench:boxes — the selection cutoff job (docs/decisions/106-box-cutoff-job.md) settling
// 100,000 box subscribers of one shop against the platform simulator, beside the simulator's bare
// throughput for the same draft-and-commit calls at the same concurrency.
//
//   1. The simulator runs as its own process, webhooks off (bench/simulator.ts: this measures the
//      cutoff, not the mirror). The shop is on BENCH_BOXES_PLAN's cost bucket (enterprise: 2,000
//      points a second), which the job and the bare loop share.
//   2. One shop gets BENCH_BOXES_CONTRACTS (100,000) ACTIVE contracts on a box plan, charged tomorrow
//      (the 3-day cutoff has passed), mirrored into subscriptions_bench_boxes with bulk INSERT ... SELECT
//      unnest; a published menu with a fallback box; a pick for every tenth subscriber. Plus
//      BENCH_BOXES_BARE (10,000) more contracts for the bare loop.
//   3. The bare loop, first half: the same draft-and-commit (the port's updateLine) through the same
//      adapter and concurrency, no database and no contract read (line ids read beforehand, outside
//      the clock).
//   4. One cutoff run (runBoxCutoff, what the hourly job does) at BENCH_BOXES_CONCURRENCY (8) platform
//      edits at once: per contract subscriptionContractUpdate (the draft answers with its lines, so no
//      contract read: docs/decisions/108-box-cutoff-throughput.md), subscriptionDraftLineUpdate,
//      subscriptionDraftCommit; the box_applications rows in groups (docs/decisions/168). Every
//      BENCH_BOXES_PROGRESS_MS it prints the window's rate, the edit latency and the load.
//   5. The bare loop, second half, right after the job. The two halves bracket the job, so the
//      baseline is measured at the load just before and just after it, not at another time (on a
//      shared machine the two were measured under different loads: docs/decisions/108); both halves
//      are printed with their load, and the baseline is the two together.
// Beside every wall rate: the one-minute load average and the CPU per contract of this process and
// of the simulator (/proc), which does not move with other people's load the way wall time does.
// Benchmarks are not tests: nothing here asserts a time. The baseline is printed beside the result.
import { loadavg } from "node:os";
import pg from "pg";
import type { ShopifyPort } from "../app/platform/index.server";
import { prepareBenchDatabase } from "./database";
import { mirrorContracts, perSecond as rate, seedSimContracts, startBenchSimulator } from "./simulator";

const CONTRACTS = Number(process.env.BENCH_BOXES_CONTRACTS ?? 100_000);
const BARE = Number(process.env.BENCH_BOXES_BARE ?? Math.min(10_000, CONTRACTS));
const CONCURRENCY = Number(process.env.BENCH_BOXES_CONCURRENCY ?? 8);
/** The shop's Shopify plan, whose cost bucket both loops share (the simulator's rate limits). */
const PLAN = process.env.BENCH_BOXES_PLAN ?? "enterprise";
const SHOP = "bench-boxes.myshopify.com";
const PROGRESS_MS = Number(process.env.BENCH_BOXES_PROGRESS_MS ?? 30_000);
const TOKEN = "shpat_bench_boxes_token";

const sim = startBenchSimulator("subscriptions_bench_boxes", Number(process.env.BENCH_SIMULATOR_PORT ?? 3192), "boxes");
const control = sim.control;
const stopSim = sim.stop;

async function main(): Promise<void> {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  await sim.ready();
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
  await control("PUT", `/shops/${SHOP}/rate-limit`, { plan: PLAN, currentlyAvailable: null });
  const template = {
    customerId: customer.id,
    nextBillingDate: charge.toISOString(),
    status: "ACTIVE" as const,
    lines: [{ variantId: v[0], quantity: 1, sellingPlanId: plan }],
  };
  const engineIds = await seedSimContracts(sim, SHOP, CONTRACTS, template);
  const bareIds = await seedSimContracts(sim, SHOP, BARE, template);
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
  await mirrorContracts(engineIds, {
    idPrefix: "bx",
    shopId: shop.id,
    nextBillingAt: charge,
    customerGid: customer.id,
    chargeCents: 900,
    createdByService: false,
    sellingPlanGroupGid: group.id,
  });
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  // Every tenth subscriber picked two Figs.
  await db.query(
    `INSERT INTO box_selections (id, shop_id, contract_gid, period, items, updated_at, created_at)
     SELECT 'bs' || lpad(n::text, 9, '0'), $1, gid, $2, $3::jsonb, now(), now()
     FROM unnest($4::text[]) WITH ORDINALITY AS t(gid, n) WHERE n % 10 = 0`,
    [shop.id, period, JSON.stringify([{ variant_id: v[1], quantity: 2 }]), engineIds],
  );
  await db.query("ANALYZE box_selections");
  await db.end();
  console.log(`  mirror seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // The bare loop's line ids, read first (not timed): its edits are draft → line update → commit only.
  const platform = await platformFor(SHOP);
  const lines: [string, string][] = [];
  await inParallel(bareIds, async (gid) => {
    const c = await platform.getContract(gid);
    lines.push([gid, c!.lines[0].id]);
  });
  const bareRound = (slice: [string, string][]) =>
    measure(async () => {
      await inParallel(slice, ([gid, line]) => platform.updateLine(gid, line, { customAttributes: [{ key: "_box_period", value: period }] }));
      return slice.length;
    });

  // Back-to-back at similar load: half the bare loop right before the job, half right after; the
  // baseline is both halves together, and each is printed with the machine's load beside it.
  console.log(`\nbare loop, first half (${Math.ceil(lines.length / 2).toLocaleString("en")} edits) ...`);
  const before = await bareRound(lines.slice(0, Math.ceil(lines.length / 2)));
  console.log(`  ${describe(before)}`);

  console.log(`\nsettling ${CONTRACTS.toLocaleString("en")} boxes past the cutoff (concurrency ${CONCURRENCY}) ...`);
  // The job's port, timed: each window prints the job's rate, the platform calls' mean latency and
  // the machine's load, so a rate that falls during the run shows whether Shopify's side or the job's
  // own work grew.
  const timed = timedPort(platform);
  const progress = watchProgress(timed.stats);
  let report!: Awaited<ReturnType<typeof runBoxCutoff>>;
  const job = await measure(async () => {
    report = await runBoxCutoff(SHOP, { concurrency: CONCURRENCY, port: timed.port });
    return report.applied;
  });
  progress.stop();
  t0 = Date.now();
  const again = await runBoxCutoff(SHOP, { concurrency: CONCURRENCY });
  const againMs = Date.now() - t0;

  console.log(`\nbare loop, second half (${(lines.length - before.n).toLocaleString("en")} edits) ...`);
  const after = await bareRound(lines.slice(before.n));
  console.log(`  ${describe(after)}`);
  const bare = joined(before, after);

  console.log(`\nresults (${PLAN} bucket, concurrency ${CONCURRENCY}, ${CONTRACTS.toLocaleString("en")} box subscribers)`);
  console.log(
    `  cutoff job: ${report.applied.toLocaleString("en")} applied (${report.picks.toLocaleString("en")} picks, ${report.fallbacks.toLocaleString("en")} fallbacks), ${report.refused} refused, ${report.deferred} deferred`,
  );
  console.log(`              ${describe(job)}`);
  console.log(`  bare loop:  ${bare.n.toLocaleString("en")} draft-and-commit edits (half before, half after the job)`);
  console.log(`              ${describe(bare)}   <- baseline`);
  console.log(`  job / baseline: ${(job.n / job.ms / (bare.n / bare.ms)).toFixed(2)}x (target >= 0.5x)`);
  console.log(`  re-run: ${again.applied} applied in ${(againMs / 1000).toFixed(1)} s (nothing twice)`);
  await prisma.$disconnect();
  await closeQueues();
}

interface Round {
  n: number;
  ms: number;
  /** The one-minute load average, the mean of its readings before and after. */
  load: number;
  /** CPU used by this process (the job or the bare loop's client) and by the simulator, in ms. */
  cpuMs: number;
  simCpuMs: number;
}

/** Runs `work` (which answers how many contracts it settled) and measures it. */
async function measure(work: () => Promise<number>): Promise<Round> {
  const load = loadavg()[0];
  const cpu = process.cpuUsage();
  const simCpu = sim.cpuMs();
  const t = Date.now();
  const n = await work();
  const used = process.cpuUsage(cpu);
  return { n, ms: Date.now() - t, load: (load + loadavg()[0]) / 2, cpuMs: (used.user + used.system) / 1000, simCpuMs: sim.cpuMs() - simCpu };
}

const joined = (a: Round, b: Round): Round => ({
  n: a.n + b.n,
  ms: a.ms + b.ms,
  load: (a.load * a.ms + b.load * b.ms) / (a.ms + b.ms),
  cpuMs: a.cpuMs + b.cpuMs,
  simCpuMs: a.simCpuMs + b.simCpuMs,
});

/**
 * Wall time and rate, the load beside it, and the CPU per contract of this process and of the
 * simulator: on a shared machine the wall rate follows the load, the CPU per contract does not, so a
 * cost that grows with the number of subscribers shows there first.
 */
const describe = (r: Round) =>
  `wall ${(r.ms / 1000).toFixed(1)} s, ${rate(r.n, r.ms)} contracts/s (load ${r.load.toFixed(1)}); CPU per contract ${(r.cpuMs / r.n).toFixed(1)} ms here, ${(r.simCpuMs / r.n).toFixed(1)} ms in the simulator`;

/** `work` over `items`, CONCURRENCY at once (the job's limiter width). */
async function inParallel<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

interface PortStats {
  calls: number;
  busyMs: number;
}

/** The port with its draft-and-commit edits counted and timed (their latency, not the job's). */
function timedPort(port: ShopifyPort): { port: ShopifyPort; stats: PortStats } {
  const stats: PortStats = { calls: 0, busyMs: 0 };
  const wrapped: ShopifyPort = {
    ...port,
    async updateLineOfDraft(gid, choose) {
      const t = performance.now();
      try {
        return await port.updateLineOfDraft(gid, choose);
      } finally {
        stats.calls++;
        stats.busyMs += performance.now() - t;
      }
    },
  };
  return { port: wrapped, stats };
}

/** Every PROGRESS_MS: the window's edits per second, their mean latency and the load average. */
function watchProgress(stats: PortStats): { stop(): void } {
  let last = { calls: 0, busyMs: 0, at: Date.now() };
  const timer = setInterval(() => {
    const now = Date.now();
    const calls = stats.calls - last.calls;
    const latency = calls ? (stats.busyMs - last.busyMs) / calls : 0;
    console.log(
      `  ${stats.calls.toLocaleString("en").padStart(8)} done: ${rate(calls, now - last.at).padStart(4)}/s in the last ${((now - last.at) / 1000).toFixed(0)} s, platform edit ${latency.toFixed(0)} ms (load ${loadavg()[0].toFixed(1)})`,
    );
    last = { calls: stats.calls, busyMs: stats.busyMs, at: now };
  }, PROGRESS_MS);
  return { stop: () => clearInterval(timer) };
}

try {
  await main();
} finally {
  stopSim();
}
process.exit(0);
