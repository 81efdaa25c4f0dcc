// The migration that partitions the delivery log (docs/decisions/169-delivery-partitions.md) keeps
// every row: a database built by the migrations before it, holding deliveries and attempts over
// four months, is migrated, and every row reads back the same, each in its month's partition, none
// in DEFAULT. Each migration file is sent as one simple query, as Prisma's deploy sends it
// (docs/decisions/144-bounded-tables.md). The migrations after it move the attempts' foreign key
// to each month (docs/decisions/170-per-month-foreign-keys.md).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { PG_BASE, RUN_ID } from "../../setup/workers";

const MIGRATIONS = path.join(process.cwd(), "prisma/migrations");
const PARTITIONING = "20261201000000_webhook_delivery_partitions";
const db = `subscriptions_test_${RUN_ID}_partition_migration`;
const DAY = 86_400_000;

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

let client: pg.Client;
beforeAll(async () => {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${db}"`);
  });
  client = new pg.Client({ connectionString: `${PG_BASE}/${db}` });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
});

const monthName = (table: string, d: Date) => `${table}_y${d.getUTCFullYear()}m${String(d.getUTCMonth() + 1).padStart(2, "0")}`;

it("every delivery and attempt survives the migration, each in its month's partition, with its attempts keyed to it", { timeout: 120_000 }, async () => {
  const dirs = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  expect(dirs).toContain(PARTITIONING);
  const run = (dir: string) => client.query(readFileSync(path.join(MIGRATIONS, dir, "migration.sql"), "utf8"));
  for (const dir of dirs.filter((d) => d < PARTITIONING)) await run(dir);

  // What a database holds before: deliveries created when they were written (not their event's
  // time), attempts keyed by the delivery id alone, rows from 100 days back to now.
  const now = Date.now();
  const ages = [100, 40, 10, 0];
  await client.query(`INSERT INTO shops (id, domain, updated_at) VALUES ('shop-m', 'm.myshopify.com', now())`);
  await client.query(
    `INSERT INTO webhook_endpoints (id, shop_id, url, secret_ciphertext, events, updated_at) VALUES ('ep-m', 'shop-m', 'https://example.com/h', 'x', ARRAY['subscription.paused'], now())`,
  );
  for (const [i, age] of ages.entries()) {
    const at = new Date(now - age * DAY);
    await client.query(`INSERT INTO events (id, shop_id, type, data, source_key, created_at) VALUES ($1, 'shop-m', 'subscription.paused', '{}', $1, $2)`, [
      `evt-m-${i}`,
      at.toISOString(),
    ]);
    await client.query(
      `INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, status, attempts, response_code, delivered_at, created_at, manual)
       VALUES ($1, 'shop-m', 'ep-m', $2, 'subscription.paused', 'delivered', 2, 200, $3, $3, $4)`,
      [`dl-m-${i}`, `evt-m-${i}`, new Date(at.getTime() + 1000).toISOString(), i % 2 === 0],
    );
    for (const n of [1, 2]) {
      await client.query(
        `INSERT INTO webhook_attempts (id, delivery_id, number, manual, started_at, finished_at, response_code, error, outcome)
         VALUES ($1, $2, $3, false, $4, $4, $5, $6, $7)`,
        [
          `at-m-${i}-${n}`,
          `dl-m-${i}`,
          n,
          at.toISOString(),
          n === 1 ? 503 : 200,
          n === 1 ? "HTTP 503 from the endpoint" : null,
          n === 1 ? "failed" : "delivered",
        ],
      );
    }
  }
  const deliveries = `SELECT id, shop_id, endpoint_id, event_id, event, status::text, attempts, response_code, last_error, delivered_at::text,
                             next_attempt_at::text, created_at::text, manual FROM webhook_deliveries ORDER BY id`;
  const attempts = `SELECT id, delivery_id, number, manual, started_at::text, finished_at::text, response_code, error, outcome::text FROM webhook_attempts ORDER BY id`;
  const before = { deliveries: (await client.query(deliveries)).rows, attempts: (await client.query(attempts)).rows };
  expect(before.deliveries).toHaveLength(4);
  expect(before.attempts).toHaveLength(8);

  await run(PARTITIONING);

  expect((await client.query(deliveries)).rows).toEqual(before.deliveries);
  expect((await client.query(attempts)).rows).toEqual(before.attempts);
  const placed = await client.query<{ id: string; delivery: string; attempts: string[]; keyed: boolean }>(
    `SELECT d.id, d.tableoid::regclass::text AS delivery,
            ARRAY(SELECT DISTINCT a.tableoid::regclass::text FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts,
            NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.delivery_created_at <> d.created_at) AS keyed
       FROM webhook_deliveries d ORDER BY d.id`,
  );
  for (const [i, age] of ages.entries()) {
    const at = new Date(now - age * DAY);
    expect(placed.rows[i]).toEqual({
      id: `dl-m-${i}`,
      delivery: monthName("webhook_deliveries", at),
      attempts: [monthName("webhook_attempts", at)],
      keyed: true,
    });
  }
  // Partitions from the oldest row's month to two months ahead, and DEFAULT, for both tables.
  const parts = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'webhook_deliveries'::regclass ORDER BY 1`,
  );
  const oldest = new Date(now - 100 * DAY);
  const expected: string[] = ["webhook_deliveries_default"];
  const today = new Date(now);
  for (
    let m = new Date(Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth(), 1));
    m <= new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 1));
  ) {
    expected.push(monthName("webhook_deliveries", m));
    m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
  }
  expect(parts.rows.map((r) => r.name).sort()).toEqual(expected.sort());

  // The keys a partitioned table allows, and the attempts' foreign key to them, cascading.
  const constraints = await client.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid IN ('webhook_deliveries'::regclass, 'webhook_attempts'::regclass) AND contype IN ('p', 'f') AND conparentid = 0 ORDER BY 1`,
  );
  expect(constraints.rows).toEqual([
    {
      name: "webhook_attempts_delivery_id_delivery_created_at_fkey",
      def: "FOREIGN KEY (delivery_id, delivery_created_at) REFERENCES webhook_deliveries(id, created_at) ON UPDATE CASCADE ON DELETE CASCADE",
    },
    { name: "webhook_attempts_pkey", def: "PRIMARY KEY (id, delivery_created_at)" },
    { name: "webhook_deliveries_endpoint_id_fkey", def: "FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints(id) ON UPDATE CASCADE ON DELETE CASCADE" },
    { name: "webhook_deliveries_event_id_fkey", def: "FOREIGN KEY (event_id) REFERENCES events(id) ON UPDATE CASCADE ON DELETE CASCADE" },
    { name: "webhook_deliveries_pkey", def: "PRIMARY KEY (id, created_at)" },
    { name: "webhook_deliveries_shop_id_fkey", def: "FOREIGN KEY (shop_id) REFERENCES shops(id) ON UPDATE CASCADE ON DELETE CASCADE" },
  ]);
  await client.query(`DELETE FROM webhook_deliveries WHERE id = 'dl-m-3'`);
  expect((await client.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = 'dl-m-3'`)).rows[0].n).toBe(0);

  // The migrations after it move the attempts' key to each month (docs/decisions/170-per-month-foreign-keys.md):
  // one validated key per attempts partition to the same month's deliveries, none on the parents.
  const kept = { deliveries: (await client.query(deliveries)).rows, attempts: (await client.query(attempts)).rows };
  for (const dir of dirs.filter((d) => d > PARTITIONING)) await run(dir);
  expect((await client.query(deliveries)).rows).toEqual(kept.deliveries);
  expect((await client.query(attempts)).rows).toEqual(kept.attempts);
  const keys = await client.query<{ owner: string; def: string; validated: boolean }>(
    `SELECT c.conrelid::regclass::text AS owner, pg_get_constraintdef(c.oid) AS def, c.convalidated AS validated FROM pg_constraint c
      WHERE c.contype = 'f' AND (c.conrelid = 'webhook_attempts'::regclass OR c.confrelid = 'webhook_deliveries'::regclass
            OR c.conrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'webhook_attempts'::regclass)) ORDER BY 1`,
  );
  const attemptParts = (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'webhook_attempts'::regclass ORDER BY 1`,
    )
  ).rows.map((r) => r.name);
  expect(attemptParts).toContain("webhook_attempts_default");
  expect(keys.rows).toEqual(
    attemptParts.map((a) => ({
      owner: a,
      def: `FOREIGN KEY (delivery_id, delivery_created_at) REFERENCES ${a.replace("webhook_attempts", "webhook_deliveries")}(id, created_at) ON UPDATE CASCADE ON DELETE CASCADE`,
      validated: true,
    })),
  );
  await client.query(`DELETE FROM webhook_deliveries WHERE id = 'dl-m-2'`);
  expect((await client.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = 'dl-m-2'`)).rows[0].n).toBe(0);
  // An attempt of no delivery is refused by its month's key.
  await expect(
    client.query(
      `INSERT INTO webhook_attempts (id, delivery_id, delivery_created_at, number, started_at, finished_at, outcome) VALUES ('at-x', 'no-such', now(), 1, now(), now(), 'failed')`,
    ),
  ).rejects.toThrow(/foreign key/);
});
