// npm run bench:locks: the longest lock the daily sweep's delivery-log steps hold on
// webhook_deliveries and webhook_attempts, with the attempts' foreign key per month (as built,
// docs/decisions/170-per-month-foreign-keys.md) beside the key on the parents it replaced
// (docs/decisions/169-delivery-partitions.md) and beside the physical floor, in the same run.
//
//   1. Database subscriptions_bench_locks (created and migrated when missing), its delivery log
//      emptied. One shop, BENCH_LOCKS_ENDPOINTS (10) endpoints, BENCH_LOCKS_DELIVERIES (300,000)
//      deliveries fanned out from events spread evenly from the first day of the month two months
//      back to the sweep's day (the 15th of this month, noon UTC), BENCH_LOCKS_ATTEMPTS (2)
//      attempts each: that month two back is past the 30 days and dropped, the last month and this
//      one are kept. The empty month furthest ahead is dropped too, so the sweep creates one.
//   2. Beside the run: a sampler connection reads pg_locks and pg_stat_activity every 10 ms and
//      keeps, per backend and relation of the log (parents and partitions), how long an
//      ACCESS EXCLUSIVE lock was seen held and how long any lock was seen waited for; an app
//      connection inserts a delivery and an attempt and reads a page of the log in a loop, its
//      slowest statement timed (what the app feels while the sweep runs).
//   3. After (per-month keys): ensureDeliveryPartitions, dropExpiredDeliveryPartitions and
//      applyRetention, as the daily sweep runs them.
//   4. Floor: a standalone copy of the expired month's two tables (same rows, same indexes) dropped
//      with a bare DROP TABLE.
//   5. Before (key on the parents): the expired month re-seeded, the month keys replaced by the one
//      on the parents, and decision 169's first drop run as it was (attempts' month dropped, the
//      deliveries' month detached, which checks the key over every attempt, then dropped), each
//      statement timed. The month keys are put back at the end (and at the start, if a run died).
// Each figure is printed with the machine's load average. Benchmarks are not tests: nothing here
// asserts a time.
import { loadavg } from "node:os";
import pg from "pg";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_locks";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DELIVERIES = Number(process.env.BENCH_LOCKS_DELIVERIES ?? 300_000);
const ATTEMPTS = Number(process.env.BENCH_LOCKS_ATTEMPTS ?? 2);
const ENDPOINTS = Number(process.env.BENCH_LOCKS_ENDPOINTS ?? 10);
const SAMPLE_MS = 10;
const SHOP_DOMAIN = "bench-locks.myshopify.com";
const PARENT_KEY = "webhook_attempts_delivery_id_delivery_created_at_fkey";

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.LOG_LEVEL ??= "error";
applyLocalDefaults(process.env);

const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

interface Episode {
  pid: number;
  relation: string;
  mode: string;
  granted: boolean;
  query: string;
  first: number;
  last: number;
  /** Samples it was seen in. */
  seen: number;
}

/**
 * Every SAMPLE_MS, the relation locks on the log's tables that are ACCESS EXCLUSIVE or not yet
 * granted. A lock seen in consecutive samples is one episode; its length is last - first seen,
 * so a lock shorter than one interval shows as 0 ms (or not at all) and a longer one is
 * understated by less than one interval.
 */
function startSampler(client: pg.Client) {
  const open = new Map<string, Episode>();
  const closed: Episode[] = [];
  let running = true;
  let samples = 0;
  const done = (async () => {
    while (running) {
      const t = performance.now();
      const { rows } = await client.query<{ pid: number; relation: string; mode: string; granted: boolean; query: string }>(
        `SELECT l.pid, coalesce(c.relname::text, 'oid ' || l.relation::text || ' (not committed yet)') AS relation, l.mode, l.granted,
                left(coalesce(a.query, ''), 120) AS query
           FROM pg_locks l
           LEFT JOIN pg_class c ON c.oid = l.relation
           LEFT JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'relation' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.pid <> pg_backend_pid()
            AND (c.oid IS NULL OR c.relname LIKE 'webhook\\_deliveries%' OR c.relname LIKE 'webhook\\_attempts%' OR c.relname LIKE 'bench\\_floor\\_%')
            AND (l.mode = 'AccessExclusiveLock' OR NOT l.granted)`,
      );
      const now = performance.now();
      samples++;
      const seen = new Set<string>();
      for (const r of rows) {
        const key = `${r.pid}|${r.relation}|${r.mode}|${r.granted}`;
        seen.add(key);
        const e = open.get(key);
        if (e) {
          e.last = now;
          e.seen++;
        } else open.set(key, { ...r, first: now, last: now, seen: 1 });
      }
      for (const [key, e] of open) {
        if (seen.has(key)) continue;
        closed.push(e);
        open.delete(key);
      }
      await sleep(Math.max(0, SAMPLE_MS - (performance.now() - t)));
    }
  })();
  return {
    /** The episodes since the last call. */
    async take(): Promise<Episode[]> {
      await sleep(3 * SAMPLE_MS);
      const out = [...closed, ...open.values()];
      closed.length = 0;
      open.clear();
      return out;
    },
    samples: () => samples,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** The app meanwhile: a delivery and an attempt written, a page of the log read, in a loop; its slowest statement since the last call. */
function startApp(client: pg.Client, shopId: string, endpointId: string, eventId: string) {
  let running = true;
  let slowest = { ms: 0, what: "" };
  let statements = 0;
  let failed: string[] = [];
  const timed = async (what: string, sql: string, values: unknown[]) => {
    const t = performance.now();
    // A statement the sweep's DDL fails (a deadlock the server breaks) is counted, not fatal.
    await client.query(sql, values).catch((err: Error) => failed.push(`${what}: ${err.message}`));
    const took = performance.now() - t;
    statements++;
    if (took > slowest.ms) slowest = { ms: took, what };
  };
  const done = (async () => {
    for (let i = 0; running; i++) {
      const id = `bench-app-${Date.now()}-${i}`;
      // The app's own order: the delivery first, then its attempt carrying the delivery's created_at
      // (deliver.server.ts), never a statement that locks the attempts before the deliveries.
      const createdAt = new Date();
      await timed(
        "insert a delivery",
        `INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, created_at) VALUES ($1, $2, $3, $4, 'subscription.paused', $5)`,
        [id, shopId, endpointId, eventId, createdAt],
      );
      await timed(
        "insert an attempt",
        `INSERT INTO webhook_attempts (id, delivery_id, delivery_created_at, number, started_at, finished_at, outcome) VALUES ($1, $2, $3, 1, now(), now(), 'delivered')`,
        [`${id}-1`, id, createdAt],
      );
      await timed("read a page of the log", `SELECT id FROM webhook_deliveries WHERE shop_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50`, [shopId]);
      await sleep(2);
    }
  })();
  return {
    take() {
      const out = { ...slowest, statements, failed };
      slowest = { ms: 0, what: "" };
      statements = 0;
      failed = [];
      return out;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  const { prisma } = await import("../app/db.server");
  const { createShop } = await import("../tests/support/fixtures");
  const parts = await import("../app/domain/housekeeping/delivery-partitions.server");
  const { applyRetention } = await import("../app/domain/housekeeping/retention.server");
  const x = (sql: string, ...values: unknown[]) => prisma.$executeRawUnsafe(sql, ...values);
  const q = <T>(sql: string, ...values: unknown[]) => prisma.$queryRawUnsafe<T[]>(sql, ...values);

  const real = new Date();
  const sweepNow = new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth(), 15, 12));
  const thisMonth = parts.monthOf(sweepNow);
  const monthAt = (n: number) => new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() + n, 1));
  const from = monthAt(-2);
  const expiredD = parts.partitionName("webhook_deliveries", from);
  const expiredA = parts.partitionName("webhook_attempts", from);
  const lastAheadD = parts.partitionName("webhook_deliveries", monthAt(parts.MONTHS_AHEAD));
  const lastAheadA = parts.partitionName("webhook_attempts", monthAt(parts.MONTHS_AHEAD));

  /** Every attempts partition has its month key and the parents have none (the migrations' shape, decision 170). */
  async function monthKeys() {
    await x(`ALTER TABLE webhook_attempts DROP CONSTRAINT IF EXISTS "${PARENT_KEY}"`);
    const have = new Set(
      (
        await q<{ name: string }>(
          `SELECT conname::text AS name FROM pg_constraint WHERE contype = 'f' AND conname LIKE 'webhook\\_attempts\\_%\\_delivery\\_fkey'`,
        )
      ).map((r) => r.name),
    );
    for (const p of [...(await parts.monthPartitions("webhook_attempts")).map((m) => m.name), "webhook_attempts_default"]) {
      if (!have.has(parts.monthForeignKeyName(p))) await x(parts.monthForeignKeySql(p, p.replace("webhook_attempts", "webhook_deliveries")));
    }
  }
  /** Decision 169's shape: the key on the parents, none per month. */
  async function parentKey() {
    for (const p of [...(await parts.monthPartitions("webhook_attempts")).map((m) => m.name), "webhook_attempts_default"]) {
      await x(`ALTER TABLE "${p}" DROP CONSTRAINT IF EXISTS "${parts.monthForeignKeyName(p)}"`);
    }
    await x(
      `ALTER TABLE webhook_attempts ADD CONSTRAINT "${PARENT_KEY}" FOREIGN KEY (delivery_id, delivery_created_at) REFERENCES webhook_deliveries (id, created_at) ON DELETE CASCADE ON UPDATE CASCADE`,
    );
  }

  // ---- setup: an empty log, the months, one shop with its endpoints and events -----------------
  await monthKeys();
  await x(`TRUNCATE webhook_attempts, webhook_deliveries`);
  await prisma.shop.deleteMany({ where: { domain: SHOP_DOMAIN } });
  await parts.ensureDeliveryPartitions(from);
  await parts.ensureDeliveryPartitions(sweepNow);
  const shop = await createShop({ domain: SHOP_DOMAIN, offlineSession: false });
  for (let i = 0; i < ENDPOINTS; i++) {
    await prisma.webhookEndpoint.create({
      data: { shopId: shop.id, url: `https://example.com/bench/${i}`, events: ["subscription.paused"], secretCiphertext: "x" },
    });
  }
  const eventsCount = Math.ceil(DELIVERIES / ENDPOINTS);
  const span = sweepNow.getTime() - from.getTime();
  let t = performance.now();
  await x(
    `INSERT INTO events (id, shop_id, type, data, source_key, created_at)
     SELECT 'bench-locks-' || g, $1, 'subscription.paused', '{}'::jsonb, 'bench-locks:' || g, $2::timestamp + ((g - 1) * $3::float8 / $4::int) * interval '1 millisecond'
       FROM generate_series(1, $4::int) g`,
    shop.id,
    from,
    span,
    eventsCount,
  );
  const appEvent = await prisma.event.create({
    data: { id: `bench-locks-app-${Date.now()}`, shopId: shop.id, type: "subscription.paused", data: {}, sourceKey: `bench-locks:app:${Date.now()}` },
  });
  const appEndpoint = await prisma.webhookEndpoint.findFirstOrThrow({ where: { shopId: shop.id } });

  /** Deliveries of the events in [a, b), one per endpoint, and their attempts; foreign-key triggers off while seeding (every row is consistent by construction). */
  async function seed(a: Date, b: Date) {
    await prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
        await tx.$executeRawUnsafe(
          `INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, status, attempts, response_code, delivered_at, created_at)
           SELECT e.id || '-' || w.id, e.shop_id, w.id, e.id, e.type, 'delivered', $3, 200, e.created_at, e.created_at
             FROM events e JOIN webhook_endpoints w ON w.shop_id = e.shop_id
            WHERE e.shop_id = $4 AND e.source_key LIKE 'bench-locks:%' AND e.id <> $5 AND e.created_at >= $1 AND e.created_at < $2`,
          a,
          b,
          ATTEMPTS,
          shop.id,
          appEvent.id,
        );
        await tx.$executeRawUnsafe(
          `INSERT INTO webhook_attempts (id, delivery_id, delivery_created_at, number, started_at, finished_at, response_code, error, outcome)
           SELECT d.id || '-' || k, d.id, d.created_at, k, d.created_at, d.created_at, CASE WHEN k < $3 THEN 503 ELSE 200 END,
                  CASE WHEN k < $3 THEN 'HTTP 503 from the endpoint' END, (CASE WHEN k < $3 THEN 'failed' ELSE 'delivered' END)::"DeliveryStatus"
             FROM webhook_deliveries d CROSS JOIN generate_series(1, $3::int) k
            WHERE d.shop_id = $4 AND d.created_at >= $1 AND d.created_at < $2`,
          a,
          b,
          ATTEMPTS,
          shop.id,
        );
      },
      { timeout: 600_000 },
    );
  }
  await seed(from, sweepNow);
  await x(`VACUUM ANALYZE webhook_deliveries, webhook_attempts, events`);
  const counts = async () => {
    const per = (table: string) =>
      q<{ part: string; n: number }>(`SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM ${table} GROUP BY 1 ORDER BY 1`);
    const attempts = new Map((await per("webhook_attempts")).map((r) => [r.part.replace("webhook_attempts", ""), r.n]));
    return (await per("webhook_deliveries")).map(
      (r) => `${r.part}: ${fmt(r.n)} deliveries, ${fmt(attempts.get(r.part.replace("webhook_deliveries", "")) ?? 0)} attempts`,
    );
  };
  console.log(
    `seeded in ${((performance.now() - t) / 1000).toFixed(1)} s (${load()}); the sweep runs at ${sweepNow.toISOString()}, ${expiredD} is past the 30 days`,
  );
  for (const line of await counts()) console.log(`  ${line}`);

  const sampler = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const appClient = new pg.Client({ connectionString: process.env.DATABASE_URL });
  // A dropped connection ends the run with its error, never an unhandled event.
  for (const c of [sampler, appClient]) c.on("error", (err) => console.error("bench connection lost:", err.message));
  await sampler.connect();
  await appClient.connect();
  const locks = startSampler(sampler);
  const app = startApp(appClient, shop.id, appEndpoint.id, appEvent.id);

  const longest = (eps: Episode[], pick: (e: Episode) => boolean) =>
    eps.filter(pick).reduce<Episode | null>((best, e) => (!best || e.last - e.first > best.last - best.first ? e : best), null);
  const describe = (e: Episode | null) =>
    e ? `${ms(e.last - e.first)} (${e.relation}, ${e.mode}${e.granted ? "" : " waited"}: ${e.query.replace(/\s+/g, " ")})` : "none seen";
  const isParent = (e: Episode) => e.relation === "webhook_deliveries" || e.relation === "webhook_attempts";
  interface Figures {
    steps: string[];
    heldParent: Episode | null;
    heldAny: Episode | null;
    waited: Episode | null;
    app: { ms: number; what: string; statements: number; failed: string[] };
  }
  async function measure(label: string, work: (step: (name: string, f: () => Promise<unknown>) => Promise<void>) => Promise<void>): Promise<Figures> {
    await locks.take();
    app.take();
    const steps: string[] = [];
    await work(async (name, f) => {
      const s = performance.now();
      await f();
      steps.push(`${name} ${ms(performance.now() - s)}`);
    });
    const eps = await locks.take();
    const figures = {
      steps,
      heldParent: longest(eps, (e) => e.granted && e.mode === "AccessExclusiveLock" && isParent(e)),
      heldAny: longest(eps, (e) => e.granted && e.mode === "AccessExclusiveLock"),
      waited: longest(eps, (e) => !e.granted),
      app: app.take(),
    };
    console.log(`\n${label} (${load()})`);
    console.log(`  statements: ${steps.join("; ")}`);
    console.log(`  longest ACCESS EXCLUSIVE held on a parent: ${describe(figures.heldParent)}`);
    console.log(`  longest ACCESS EXCLUSIVE held on any table of the log: ${describe(figures.heldAny)}`);
    console.log(`  longest lock wait: ${describe(figures.waited)}`);
    console.log(`  the app's slowest statement: ${ms(figures.app.ms)} (${figures.app.what || "none"}; ${fmt(figures.app.statements)} statements)`);
    for (const f of figures.app.failed) console.log(`  the app's statement failed: ${f}`);
    return figures;
  }

  // ---- quiet: the app alone, for its own slowest statement ---------------------------------------
  const quiet = await measure("quiet (no sweep, 3 s)", async (step) => step("nothing", () => sleep(3000)));

  // ---- the floor's tables: the expired month copied as standalone tables --------------------------
  await x(`DROP TABLE IF EXISTS bench_floor_attempts, bench_floor_deliveries`);
  await x(`CREATE TABLE bench_floor_deliveries (LIKE "${expiredD}" INCLUDING ALL)`);
  await x(`INSERT INTO bench_floor_deliveries SELECT * FROM "${expiredD}"`);
  await x(`CREATE TABLE bench_floor_attempts (LIKE "${expiredA}" INCLUDING ALL)`);
  await x(`INSERT INTO bench_floor_attempts SELECT * FROM "${expiredA}"`);
  await x(`VACUUM ANALYZE bench_floor_deliveries, bench_floor_attempts`);

  // ---- after: the sweep's steps as built (month keys) ---------------------------------------------
  await x(`DROP TABLE IF EXISTS "${lastAheadA}"`);
  await x(`DROP TABLE IF EXISTS "${lastAheadD}"`);
  const after = await measure("after: per-month keys, the daily sweep's delivery-log steps", async (step) => {
    await step("ensureDeliveryPartitions (creates one month)", () => parts.ensureDeliveryPartitions(sweepNow));
    await step("dropExpiredDeliveryPartitions", () => parts.dropExpiredDeliveryPartitions(sweepNow));
    await step("applyRetention", () => applyRetention(sweepNow));
  });

  // ---- floor: a bare DROP TABLE of the same two tables -------------------------------------------
  const floor = await measure("floor: DROP TABLE of a standalone copy of the expired month", async (step) => {
    await step("DROP TABLE x2", () =>
      prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`DROP TABLE bench_floor_attempts`);
        await tx.$executeRawUnsafe(`DROP TABLE bench_floor_deliveries`);
      }),
    );
  });

  // ---- before: the key on the parents, decision 169's first drop -------------------------------
  t = performance.now();
  await parts.ensureDeliveryPartitions(from);
  await seed(from, monthAt(-1));
  await x(`DROP TABLE IF EXISTS "${lastAheadA}"`);
  await x(`DROP TABLE IF EXISTS "${lastAheadD}"`);
  await parentKey();
  await x(`VACUUM ANALYZE webhook_deliveries, webhook_attempts`);
  console.log(`\nthe expired month re-seeded and the key put on the parents in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const before = await (async () => {
    try {
      return await measure("before: the key on the parents (decision 169 as first built)", async (step) => {
        await step("ensureDeliveryPartitions (creates one month)", () => parts.ensureDeliveryPartitions(sweepNow));
        await prisma.$transaction(
          async (tx) => {
            await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '5s'`);
            await step(`DROP TABLE ${expiredA}`, () => tx.$executeRawUnsafe(`DROP TABLE "${expiredA}"`));
            await step(`DETACH PARTITION ${expiredD}`, () => tx.$executeRawUnsafe(`ALTER TABLE webhook_deliveries DETACH PARTITION "${expiredD}"`));
            await step(`DROP TABLE ${expiredD}`, () => tx.$executeRawUnsafe(`DROP TABLE "${expiredD}"`));
          },
          { timeout: 600_000 },
        );
        await step("applyRetention", () => applyRetention(sweepNow));
      });
    } finally {
      await monthKeys();
    }
  })();

  await app.stop();
  await locks.stop();
  console.log(
    `\n${locks.samples()} lock samples every ${SAMPLE_MS} ms; a lock is shown as the time between the first and last sample that saw it / the samples that saw it (one sample: shorter than about ${SAMPLE_MS} ms)`,
  );
  const row = (name: string, f: (x: Figures) => string) =>
    console.log(
      `  ${name.padEnd(46)} ${[before, after, floor, quiet]
        .map(f)
        .map((s) => s.padStart(12))
        .join("")}`,
    );
  const held = (e: Episode | null) => (e ? `${ms(e.last - e.first)}/${e.seen}` : "-");
  console.log(`\n  ${"".padEnd(46)} ${["before", "after", "floor", "quiet"].map((s) => s.padStart(12)).join("")}`);
  row("ACCESS EXCLUSIVE held on a parent", (f) => held(f.heldParent));
  row("ACCESS EXCLUSIVE held on any table of the log", (f) => held(f.heldAny));
  row("longest lock wait seen", (f) => held(f.waited));
  row("the app's slowest statement", (f) => ms(f.app.ms));
  row("the app's statements failed", (f) => String(f.app.failed.length));
  await appClient.end();
  await sampler.end();
  await prisma.$disconnect();
}

await main();
process.exit(0);
