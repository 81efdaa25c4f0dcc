// Tables that stay bounded (docs/decisions/144-bounded-tables.md): every statement the sweepers,
// the retention rules, a contract's history and a shop's erasure send is planned on an index (the
// statements are captured from the real code as it runs, then EXPLAINed against tables seeded
// with a realistic spread of ages and ANALYZEd), and every retention DELETE removes at most
// RETENTION_BATCH_ROWS rows (counted by a statement-level trigger, not by the code's own report).
// The delivery log is partitioned by month (docs/decisions/169-delivery-partitions.md): its old
// months are dropped whole, and only its DEFAULT partition is deleted from by rows.
import pg from "pg";
import { prisma } from "../../../app/db.server";
import { runDailySweep } from "../../../app/domain/housekeeping/daily-sweep.server";
import { requeueWebhookWork } from "../../../app/domain/outbound-webhooks/sweep.server";
import { subscriptionHistory } from "../../../app/domain/subscriptions/history.server";
import { redactShop } from "../../../app/domain/shop/lifecycle.server";
import { ensureDeliveryPartitions, monthPartitions } from "../../../app/domain/housekeeping/delivery-partitions.server";
import { createShop } from "../../support/fixtures";

vi.hoisted(() => {
  process.env.RETENTION_BATCH_ROWS = "500";
});

const BATCH = 500;
const N = 31_000;
/** The tables that grow with traffic: none of them may be read by a sequential scan. */
const BIG = [
  "events",
  "webhook_deliveries",
  "webhook_attempts",
  "inbound_webhooks",
  "idempotency_records",
  "billing_cycles",
  "billing_attempts",
  "audit_events",
];
const BIG_RE = new RegExp(`\\b(?:FROM|UPDATE|JOIN)\\s+(?:"public"\\.)?"?(${BIG.join("|")})"?`, "i");
/** A month or DEFAULT partition of a big table, named as its parent. */
const parentOf = (relation: string) => relation.replace(/_(?:y\d{4}m\d{2}|default)$/, "");
/** The delivery log's DEFAULT partition: deleted from by rows, so its deletes are counted too. */
const DELIVERIES_DEFAULT = "webhook_deliveries_default";

type Captured = { text: string; values: unknown[] };
const captured: Captured[] = [];
let recording = false;
const originalQuery = pg.Client.prototype.query;

beforeAll(() => {
  // Every statement any pool of this process sends (Prisma's adapter and the hot pool use pg.Client).
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof first === "string" ? first : first?.text;
    const values = typeof first === "string" ? ((Array.isArray(args[1]) ? args[1] : []) as unknown[]) : (first?.values ?? []);
    if (recording && text) captured.push({ text, values });
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
});
afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await prisma.shop.deleteMany({ where: { id: { in: cleanup } } });
  for (const t of BIG) for (const leaf of await storage(t)) await prisma.$executeRawUnsafe(`ALTER TABLE "${leaf}" RESET (autovacuum_enabled)`);
  // The delete-counting triggers go too: later test files share this worker's database, and a
  // trigger left behind would make every DELETE on these tables fail once its log table is gone.
  for (const t of [...BIG, DELIVERIES_DEFAULT]) await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS scale_log_delete ON "${t}"`);
  await prisma.$executeRawUnsafe(`DROP FUNCTION IF EXISTS scale_log_delete()`);
  await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS scale_delete_log CASCADE`);
});

const cleanup: string[] = [];

async function seed(shopId: string, domain: string, rows: number, contracts: number) {
  const x = (sql: string, ...values: unknown[]) => prisma.$executeRawUnsafe(sql, ...values);
  // Rows spread evenly over a little more than each table's retention window: what a daily
  // sweep finds (about one day's worth past the window), not a table made of old rows.
  await x(
    `INSERT INTO webhook_endpoints (id, shop_id, url, secret_ciphertext, events, updated_at) VALUES ('ep-' || $1, $1, 'https://example.com/h', 'x', ARRAY['subscription.updated'], now())`,
    shopId,
  );
  await x(
    `INSERT INTO events (id, shop_id, type, data, source_key, created_at, contract_gid)
     SELECT 'evt-' || $1 || '-' || g, $1, 'subscription.updated', jsonb_build_object('contract_id', 'gid://shopify/SubscriptionContract/' || (g % 100)),
            'src-' || $1 || '-' || g, now() - (g * interval '1 day' * 91 / $2), 'gid://shopify/SubscriptionContract/' || (g % 100)
       FROM generate_series(1, $2) g`,
    shopId,
    rows,
  );
  await x(
    `INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, status, attempts, next_attempt_at, created_at)
     SELECT 'dl-' || $1 || '-' || g, $1, 'ep-' || $1, 'evt-' || $1 || '-' || g, 'subscription.updated',
            CASE WHEN g % 1000 = 0 THEN 'failed'::"DeliveryStatus" ELSE 'delivered'::"DeliveryStatus" END, 1,
            CASE WHEN g % 1000 = 0 THEN now() + interval '1 hour' END, now() - (g * interval '1 day' * 91 / $2)
       FROM generate_series(1, $2) g`,
    shopId,
    rows,
  );
  // DEFAULT (months without a partition) as its retention must plan it at its worst: a tenth more
  // rows dated a year back (past retention) beside half as many again dated a year ahead (kept).
  await x(
    `INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, status, attempts, created_at)
     SELECT 'dl-old-' || $1 || '-' || g, $1, 'ep-' || $1, 'evt-' || $1 || '-' || g, 'subscription.updated', 'delivered'::"DeliveryStatus", 1,
            now() - interval '365 days' - (g * interval '1 second')
       FROM generate_series(1, $2 / 10) g
     UNION ALL
     SELECT 'dl-ahead-' || $1 || '-' || g, $1, 'ep-' || $1, 'evt-' || $1 || '-' || g, 'subscription.updated', 'delivered'::"DeliveryStatus", 1,
            now() + interval '365 days' + (g * interval '1 second')
       FROM generate_series(1, $2 / 2) g`,
    shopId,
    rows,
  );
  await x(
    `INSERT INTO webhook_attempts (id, delivery_id, delivery_created_at, number, started_at, finished_at, outcome)
     SELECT 'at-' || d.id, d.id, d.created_at, 1, now(), now(), 'delivered' FROM webhook_deliveries d WHERE d.shop_id = $1`,
    shopId,
  );
  await x(
    `INSERT INTO inbound_webhooks (webhook_id, shop_domain, topic, received_at, processed_at)
     SELECT 'in-' || $1 || '-' || g, $3, 'subscription_contracts/update', now() - (g * interval '1 day' * 8 / $2),
            CASE WHEN g <= 20 THEN NULL ELSE now() END
       FROM generate_series(1, $2) g`,
    shopId,
    rows,
    domain,
  );
  await x(
    `INSERT INTO idempotency_records (id, shop_id, key, request_hash, created_at)
     SELECT 'ik-' || $1 || '-' || g, $1, 'k' || g, 'h', now() - (g * interval '1 hour' * 25 / $2) FROM generate_series(1, $2) g`,
    shopId,
    rows,
  );
  await x(
    `INSERT INTO audit_events (id, shop_id, actor_type, actor_id, action, target_type, target_id, outcome, created_at)
     SELECT 'aud-' || $1 || '-' || g, $1, 'system', 'sweep', 'test', 'contract', 't' || g, 'success', now() - (g * interval '1 day' * 401 / $2)
       FROM generate_series(1, $2) g`,
    shopId,
    rows,
  );
  await x(
    `INSERT INTO contracts (id, shop_id, contract_gid, status, customer_gid, currency_code, created_at, updated_at)
     SELECT 'ct-' || $1 || '-' || g, $1, 'gid://shopify/SubscriptionContract/' || g, 'ACTIVE', 'gid://shopify/Customer/' || g, 'USD', now(), now()
       FROM generate_series(1, $2) g`,
    shopId,
    contracts,
  );
  // Monthly cycles over 31 months: a little more than the 730-day billing history window.
  await x(
    `INSERT INTO billing_cycles (id, shop_id, contract_id, contract_gid, cycle_at, status, updated_at)
     SELECT 'cy-' || $1 || '-' || c || '-' || m, $1, 'ct-' || $1 || '-' || c, 'gid://shopify/SubscriptionContract/' || c,
            now() - (m * interval '1 day' * 30) - (c * interval '1 second'), CASE WHEN m = 0 THEN 'CHARGING'::"BillingCycleStatus" ELSE 'PAID'::"BillingCycleStatus" END, now()
       FROM generate_series(1, $2) c, generate_series(0, 25) m`,
    shopId,
    contracts,
  );
  await x(
    `INSERT INTO billing_attempts (id, shop_id, cycle_id, number, idempotency_key, status, currency_code, created_at)
     SELECT 'ba-' || c.id, $1, c.id, 1, 'idem-' || c.id, 'SUCCEEDED', 'USD', c.cycle_at FROM billing_cycles c WHERE c.shop_id = $1`,
    shopId,
  );
}

/** The tables that hold a big table's rows: its partitions, or itself (a partitioned table has no storage options). */
async function storage(t: string): Promise<string[]> {
  const leaves = await prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT relid::text AS name FROM pg_partition_tree($1) WHERE isleaf`, t);
  return leaves.length ? leaves.map((l) => l.name) : [t];
}

async function analyze() {
  for (const t of BIG) {
    // The statistics stay those of the seeded tables.
    for (const leaf of await storage(t)) await prisma.$executeRawUnsafe(`ALTER TABLE "${leaf}" SET (autovacuum_enabled = false)`);
    await prisma.$executeRawUnsafe(`ANALYZE "${t}"`); // a partitioned table's ANALYZE takes its partitions too
  }
}

/** Counts the rows each DELETE statement removes, per table, from the statement's own transition table. */
async function logDeletes() {
  await prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS scale_delete_log (tbl text, n int)`);
  await prisma.$executeRawUnsafe(`TRUNCATE scale_delete_log`);
  await prisma.$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION scale_log_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO scale_delete_log SELECT TG_TABLE_NAME, count(*) FROM gone; RETURN NULL; END $$`);
  for (const t of [...BIG, DELIVERIES_DEFAULT]) {
    await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS scale_log_delete ON "${t}"`);
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER scale_log_delete AFTER DELETE ON "${t}" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scale_log_delete()`,
    );
  }
}

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };
function walk(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
  return out;
}

it("plans every sweeper, retention, history and erasure statement on an index, and deletes in bounded batches", { timeout: 300_000 }, async () => {
  // Most rows belong to other shops, as they do with thousands installed: one shop's erasure reads
  // its own rows by index, the sweeps read everyone's old rows by age.
  const others = await createShop({ offlineSession: false });
  const shop = await createShop({ offlineSession: false });
  cleanup.push(others.id);
  const now = new Date();
  // The delivery log's months as production has them: every month of the last three, and two ahead.
  for (const back of [93, 62, 31, 0]) await ensureDeliveryPartitions(new Date(now.getTime() - back * 86_400_000));
  await seed(others.id, others.domain, N * 2, 2000);
  await seed(shop.id, shop.domain, 2000, 100);
  await analyze();
  await logDeletes();
  const cutoff = new Date(now.getTime() - 30 * 86_400_000);
  const months = await monthPartitions("webhook_deliveries");
  const past = months.filter((m) => m.to <= cutoff).map((m) => m.name);
  const expectedOld = await prisma.$queryRawUnsafe<{ inPastMonths: number; attemptsInPastMonths: number; inDefault: number; events: number; cycles: number }[]>(
    `SELECT (SELECT count(*) FROM webhook_deliveries WHERE shop_id = ANY($1) AND tableoid::regclass::text = ANY($2))::int AS "inPastMonths",
            (SELECT count(*) FROM webhook_attempts WHERE delivery_id LIKE 'dl-%' AND tableoid::regclass::text = ANY($3))::int AS "attemptsInPastMonths",
            (SELECT count(*) FROM webhook_deliveries_default WHERE created_at < $4)::int AS "inDefault",
            (SELECT count(*) FROM events WHERE shop_id = ANY($1) AND created_at < now() - interval '90 days')::int AS events,
            (SELECT count(*) FROM billing_cycles WHERE shop_id = ANY($1) AND status = 'PAID' AND cycle_at < now() - interval '730 days')::int AS cycles`,
    [others.id, shop.id],
    past,
    past.map((name) => name.replace("webhook_deliveries", "webhook_attempts")),
    cutoff,
  );
  expect(past.length).toBeGreaterThanOrEqual(1);
  expect(expectedOld[0].inPastMonths).toBeGreaterThan(BATCH * 2);
  expect(expectedOld[0].attemptsInPastMonths).toBe(expectedOld[0].inPastMonths);
  expect(expectedOld[0].inDefault).toBeGreaterThan(BATCH * 2); // more than one batch each: batching shows
  expect(expectedOld[0].events).toBeGreaterThan(BATCH);
  expect(expectedOld[0].cycles).toBeGreaterThan(BATCH * 2);

  recording = true;
  try {
    await requeueWebhookWork(now, 60_000);
    const report = await runDailySweep(now);
    const history = await subscriptionHistory(shop.id, "gid://shopify/SubscriptionContract/7");
    expect(history.length).toBeGreaterThan(0);
    // The months past retention went whole (below, with their attempts); the others stayed.
    expect(report.deliveryMonthsDropped).toBe(past.length);
    // The sweep's own report agrees with what was old in DEFAULT (a second count, not its own).
    expect(report.deliveriesPruned).toBe(expectedOld[0].inDefault);
    expect(report.billingCyclesPruned).toBe(expectedOld[0].cycles);
    expect(report.eventsPruned).toBe(expectedOld[0].events);
  } finally {
    recording = false;
  }
  expect((await monthPartitions("webhook_deliveries")).map((m) => m.name)).toEqual(months.filter((m) => !past.includes(m.name)).map((m) => m.name));
  const attemptMonths = (await monthPartitions("webhook_attempts")).map((m) => m.name.replace("webhook_attempts", "webhook_deliveries"));
  expect(attemptMonths.filter((n) => past.includes(n))).toEqual([]);
  const pastEnd = months.find((m) => m.name === past[past.length - 1])!.to;
  const mine = { shopId: { in: [others.id, shop.id] } };
  expect(await prisma.webhookDelivery.count({ where: { ...mine, createdAt: { gte: months[0].from, lt: pastEnd } } })).toBe(0);
  expect(await prisma.webhookAttempt.count({ where: { deliveryCreatedAt: { gte: months[0].from, lt: pastEnd } } })).toBe(0);
  expect(await prisma.webhookDelivery.count({ where: { ...mine, createdAt: { gte: cutoff } } })).toBeGreaterThan(N);
  const sweepLog = await prisma.$queryRawUnsafe<{ tbl: string; n: number }[]>(`SELECT tbl, n FROM scale_delete_log`);
  await prisma.$executeRawUnsafe(`TRUNCATE scale_delete_log`);

  recording = true;
  try {
    expect(await redactShop(shop.domain)).toBe(true);
  } finally {
    recording = false;
  }
  const redactLog = await prisma.$queryRawUnsafe<{ tbl: string; n: number }[]>(`SELECT tbl, n FROM scale_delete_log`);

  // Bounded: no statement deleted more than a batch of any big table, and the big ones took several.
  const direct = ["webhook_deliveries", DELIVERIES_DEFAULT, "events", "billing_cycles", "idempotency_records", "inbound_webhooks", "audit_events"];
  for (const { tbl, n } of [...sweepLog, ...redactLog].filter((r) => direct.includes(r.tbl))) expect(n, tbl).toBeLessThanOrEqual(BATCH);
  const statements = (log: { tbl: string; n: number }[], tbl: string) => log.filter((r) => r.tbl === tbl && r.n > 0).length;
  // No row of a month partition was deleted by the sweep: those went whole; DEFAULT's old rows in batches.
  expect(sweepLog.filter((r) => r.tbl === "webhook_deliveries").reduce((s, r) => s + r.n, 0)).toBe(0);
  expect(statements(sweepLog, DELIVERIES_DEFAULT)).toBeGreaterThanOrEqual(3);
  expect(statements(sweepLog, "billing_cycles")).toBeGreaterThanOrEqual(3);
  expect(statements(redactLog, "events")).toBeGreaterThanOrEqual(2);
  expect(statements(redactLog, "webhook_deliveries")).toBeGreaterThanOrEqual(2);
  expect(sweepLog.filter((r) => r.tbl === DELIVERIES_DEFAULT).reduce((s, r) => s + r.n, 0)).toBe(expectedOld[0].inDefault);
  expect(await prisma.event.count({ where: { shopId: shop.id } })).toBe(0);
  expect(await prisma.event.count({ where: { shopId: others.id } })).toBeGreaterThan(N);

  // Every captured statement that reads, changes or deletes a big table, EXPLAINed as sent.
  const checked = captured.filter((c) => BIG_RE.test(c.text) && !/^\s*INSERT\b/i.test(c.text) && !/^\s*WITH\b[\s\S]*\bINSERT INTO events\b/i.test(c.text));
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const seqScans: string[] = [];
  const indexesUsed = new Set<string>();
  try {
    for (const c of checked) {
      const run = originalQuery as unknown as (
        this: pg.Client,
        q: { text: string; values: unknown[] },
      ) => Promise<pg.QueryResult<{ "QUERY PLAN": { Plan: PlanNode }[] }>>;
      const { rows } = await run.call(client, { text: `EXPLAIN (FORMAT JSON) ${c.text}`, values: c.values });
      for (const node of walk(rows[0]["QUERY PLAN"][0].Plan)) {
        if (node["Index Name"]) indexesUsed.add(node["Index Name"]);
        if (node["Node Type"] === "Seq Scan" && BIG.includes(parentOf(node["Relation Name"] ?? "")))
          seqScans.push(`${node["Relation Name"]}: ${c.text.replace(/\s+/g, " ").slice(0, 200)}`);
      }
    }
  } finally {
    await client.end();
  }
  expect(checked.length).toBeGreaterThanOrEqual(15);
  // A month ahead holds no row yet: the planner rightly reads an empty partition without an index.
  const empty = await prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT relname::text AS name FROM pg_class WHERE relkind = 'r' AND reltuples = 0`);
  const emptyNames = new Set(empty.map((e) => e.name));
  expect(seqScans.filter((s) => !emptyNames.has(s.slice(0, s.indexOf(":"))))).toEqual([]);
  // A partition's index is named after its partition: counted as the partitioned table's index it belongs to.
  const roots = await prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT coalesce(pg_partition_root(c.oid)::text, c.relname::text) AS name FROM pg_class c WHERE c.relname = ANY($1)`,
    [...indexesUsed],
  );
  for (const r of roots) indexesUsed.add(r.name);
  for (const index of [
    "inbound_webhooks_pending_idx",
    "inbound_webhooks_received_at_idx",
    "webhook_deliveries_due_idx",
    "webhook_deliveries_created_at_idx",
    "events_created_at_idx",
    "events_shop_id_contract_gid_created_at_id_idx",
    "billing_cycles_settled_idx",
    "idempotency_records_created_at_idx",
    "audit_events_created_at_idx",
  ]) {
    expect([...indexesUsed], index).toContain(index);
  }
});
