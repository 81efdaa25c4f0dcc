// The delivery log partitioned by month (docs/decisions/169-delivery-partitions.md): a delivery and
// its attempts land in the partition of their event's month, the daily sweep drops a month past
// the 30 days whole (attempts with it) and keeps the months ahead created, a month missing from
// the partitions falls into DEFAULT and moves out when its month is created, and the publish
// statement's ON CONFLICT still makes one delivery per event and endpoint. The attempts' foreign
// key is one per month, so dropping a month reads no other month
// (docs/decisions/170-per-month-foreign-keys.md).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { prisma } from "../../../app/db.server";
import { runDailySweep } from "../../../app/domain/housekeeping/daily-sweep.server";
import {
  DELIVERY_RETENTION_DAYS,
  MONTHS_AHEAD,
  dropExpiredDeliveryPartitions,
  ensureDeliveryPartitions,
  monthOf,
  monthPartitions,
  partitionName,
} from "../../../app/domain/housekeeping/delivery-partitions.server";
import { publishEvent } from "../../../app/domain/outbound-webhooks/publish.server";
import { withAttemptLog } from "../../support/delivery-log";
import { createShop } from "../../support/fixtures";

const DAY = 86_400_000;
const addMonths = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 15, 12));

/** A Pro shop with `n` endpoints subscribed to subscription.paused. */
async function shopWithEndpoints(n: number) {
  const shop = await createShop({ offlineSession: false });
  for (let i = 0; i < n; i++) {
    await prisma.webhookEndpoint.create({
      data: { shopId: shop.id, url: `https://example.com/hook/${i}`, events: ["subscription.paused"], secretCiphertext: "x" },
    });
  }
  return shop;
}

const paused = {
  contract_id: "gid://shopify/SubscriptionContract/1",
  customer_id: "gid://shopify/Customer/1",
  previous_status: "ACTIVE",
  new_status: "PAUSED",
} as const;

/** An event published at `occurredAt` through the real publish statement, and one attempt logged for each of its deliveries. */
async function publishAt(shopId: string, occurredAt: Date, sourceKey = `partitions:${randomUUID()}`) {
  const published = await prisma.$transaction((tx) => publishEvent(tx, { shopId, type: "subscription.paused", sourceKey, data: paused, occurredAt }));
  for (const id of published.deliveryIds) {
    const d = await prisma.webhookDelivery.findFirstOrThrow({ where: { id } });
    await prisma.webhookAttempt.create({
      data: { deliveryId: id, deliveryCreatedAt: d.createdAt, number: 1, startedAt: occurredAt, finishedAt: occurredAt, outcome: "delivered" },
    });
  }
  return published;
}

/** The partition each of the rows sits in (PostgreSQL's own answer, tableoid). */
async function placement(deliveryIds: string[]) {
  return prisma.$queryRawUnsafe<{ delivery: string; attempts: string[] }[]>(
    `SELECT d.tableoid::regclass::text AS delivery,
            ARRAY(SELECT a.tableoid::regclass::text FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d WHERE d.id = ANY($1) ORDER BY d.id`,
    deliveryIds,
  );
}

const exists = async (table: string) => (await prisma.$queryRawUnsafe<{ t: string | null }[]>(`SELECT to_regclass($1)::text AS t`, table))[0].t !== null;

it("a delivery and its attempts land in their event's month; the months ahead exist before anything is written to them", async () => {
  const now = new Date();
  await ensureDeliveryPartitions(now);
  const names = (await monthPartitions("webhook_deliveries")).map((p) => p.name);
  for (let i = 0; i <= MONTHS_AHEAD; i++) expect(names).toContain(partitionName("webhook_deliveries", monthOf(addMonths(now, i))));

  const shop = await shopWithEndpoints(2);
  const ahead = addMonths(now, 1);
  const published = await publishAt(shop.id, ahead);
  expect(published.deliveryIds).toHaveLength(2);
  const event = await prisma.event.findUniqueOrThrow({ where: { id: published.eventId } });
  for (const d of await prisma.webhookDelivery.findMany({ where: { id: { in: published.deliveryIds } } })) expect(d.createdAt).toEqual(event.createdAt);
  const month = monthOf(ahead);
  expect(await placement(published.deliveryIds)).toEqual([
    { delivery: partitionName("webhook_deliveries", month), attempts: [partitionName("webhook_attempts", month)] },
    { delivery: partitionName("webhook_deliveries", month), attempts: [partitionName("webhook_attempts", month)] },
  ]);
});

it("the same event fanned out twice makes one delivery per endpoint (the publish, and the key ON CONFLICT relies on)", async () => {
  const shop = await shopWithEndpoints(3);
  const sourceKey = `partitions-twice:${randomUUID()}`;
  const first = await publishAt(shop.id, new Date(), sourceKey);
  const again = await prisma.$transaction((tx) => publishEvent(tx, { shopId: shop.id, type: "subscription.paused", sourceKey, data: paused }));
  expect(first.deliveryIds).toHaveLength(3);
  expect(again).toMatchObject({ eventId: first.eventId, created: false, deliveryIds: [] });

  // The fan-out's own insert, run again for the event as it stands: every row conflicts on
  // (event_id, endpoint_id, created_at), since a delivery's created_at is its event's.
  const inserted = await prisma.$executeRawUnsafe(
    `INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, next_attempt_at, created_at)
     SELECT gen_random_uuid()::text, e.shop_id, e.id, ev.id, ev.type, now(), ev.created_at
       FROM events ev JOIN webhook_endpoints e ON e.shop_id = ev.shop_id
      WHERE ev.id = $1
     ON CONFLICT DO NOTHING`,
    first.eventId,
  );
  expect(inserted).toBe(0);
  const perEndpoint = await prisma.webhookDelivery.groupBy({ by: ["endpointId"], where: { eventId: first.eventId }, _count: true });
  expect(perEndpoint.map((g) => g._count)).toEqual([1, 1, 1]);
});

it("the daily sweep drops a month past the 30 days whole, with its attempts, and keeps the recent rows", async () => {
  const now = new Date();
  // 70 days back is in a month that ended more than 30 days ago, whichever day today is.
  const old = new Date(now.getTime() - 70 * DAY);
  await ensureDeliveryPartitions(old);
  const oldMonth = partitionName("webhook_deliveries", monthOf(old));
  const oldAttempts = partitionName("webhook_attempts", monthOf(old));
  const shop = await shopWithEndpoints(2);
  const gone = await publishAt(shop.id, old);
  const kept = await publishAt(shop.id, new Date(now.getTime() - 29 * DAY));
  expect((await placement(gone.deliveryIds)).map((p) => p.delivery)).toEqual([oldMonth, oldMonth]);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: gone.deliveryIds } } })).toBe(2);

  // Every row any DELETE statement removes from the log is recorded: a month dropped whole deletes none.
  await prisma.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS partitions_delete_log (tbl text, delivery_id text)`);
  await prisma.$executeRawUnsafe(`TRUNCATE partitions_delete_log`);
  await prisma.$executeRawUnsafe(
    `CREATE OR REPLACE FUNCTION partitions_log_delete() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO partitions_delete_log SELECT TG_TABLE_NAME, coalesce(to_jsonb(g) ->> 'delivery_id', to_jsonb(g) ->> 'id') FROM gone g;
       RETURN NULL;
     END $$`,
  );
  const logged = ["webhook_deliveries", "webhook_attempts", "webhook_deliveries_default", "webhook_attempts_default"];
  for (const t of logged) {
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER partitions_log_delete AFTER DELETE ON "${t}" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION partitions_log_delete()`,
    );
  }
  try {
    const report = await runDailySweep(now);
    expect(report.deliveryMonthsDropped).toBeGreaterThanOrEqual(1);
    const deleted = await prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM partitions_delete_log WHERE delivery_id = ANY($1)`, [
      ...gone.deliveryIds,
      ...kept.deliveryIds,
    ]);
    expect(deleted[0].n).toBe(0);
  } finally {
    for (const t of logged) await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS partitions_log_delete ON "${t}"`);
    await prisma.$executeRawUnsafe(`DROP FUNCTION IF EXISTS partitions_log_delete() CASCADE`);
    await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS partitions_delete_log`);
  }

  const after = (await monthPartitions("webhook_deliveries")).map((p) => p.name);
  expect(after).not.toContain(oldMonth);
  expect((await monthPartitions("webhook_attempts")).map((p) => p.name)).not.toContain(oldAttempts);
  expect(await exists(oldMonth)).toBe(false);
  expect(await exists(oldAttempts)).toBe(false);
  expect(await prisma.webhookDelivery.count({ where: { id: { in: gone.deliveryIds } } })).toBe(0);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: gone.deliveryIds } } })).toBe(0);
  expect(await prisma.webhookDelivery.count({ where: { id: { in: kept.deliveryIds } } })).toBe(2);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: kept.deliveryIds } } })).toBe(2);
  // The events outlive their deliveries (90 days): only the delivery log went.
  expect(await prisma.event.count({ where: { id: gone.eventId } })).toBe(1);
});

it("a month without a partition falls into DEFAULT; creating the month moves its rows out, attempts and all", async () => {
  const far = addMonths(new Date(), MONTHS_AHEAD + 4);
  const month = monthOf(far);
  const shop = await shopWithEndpoints(1);
  const published = await publishAt(shop.id, far);
  expect(await placement(published.deliveryIds)).toEqual([{ delivery: "webhook_deliveries_default", attempts: ["webhook_attempts_default"] }]);

  expect(await ensureDeliveryPartitions(far)).toContain(partitionName("webhook_deliveries", month));
  expect(await placement(published.deliveryIds)).toEqual([
    { delivery: partitionName("webhook_deliveries", month), attempts: [partitionName("webhook_attempts", month)] },
  ]);
  // The moved rows still answer through the parent, by their key.
  const [d] = await withAttemptLog([await prisma.webhookDelivery.findFirstOrThrow({ where: { id: published.deliveryIds[0] } })]);
  expect(d.attemptLog).toHaveLength(1);
});

it("rows in DEFAULT past the 30 days are deleted by the sweep, with their attempts; recent ones in DEFAULT stay", async () => {
  const now = new Date();
  // 62 days back: its month ended more than 30 days ago, so no partition holds it (never made, or
  // dropped); its event (90 days) is still there, so only the DEFAULT rule can remove the row.
  const shop = await shopWithEndpoints(1);
  const old = await publishAt(shop.id, new Date(now.getTime() - 62 * DAY));
  const ahead = await publishAt(shop.id, addMonths(now, MONTHS_AHEAD + 8));
  expect((await placement([...old.deliveryIds, ...ahead.deliveryIds])).map((p) => p.delivery)).toEqual([
    "webhook_deliveries_default",
    "webhook_deliveries_default",
  ]);
  const report = await runDailySweep(now);
  expect(report.deliveriesPruned).toBeGreaterThanOrEqual(1);
  expect(await prisma.webhookDelivery.count({ where: { id: { in: old.deliveryIds } } })).toBe(0);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: old.deliveryIds } } })).toBe(0);
  expect(await prisma.event.count({ where: { id: old.eventId } })).toBe(1);
  expect(await prisma.webhookDelivery.count({ where: { id: { in: ahead.deliveryIds } } })).toBe(1);
});

/** A session of its own on this worker's database, beside the app's pools (a lost connection fails the test at its next query). */
async function session(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

/** Every foreign key between the two tables, parents and partitions alike, as the catalogue states it. */
const logForeignKeys = () =>
  prisma.$queryRawUnsafe<{ owner: string; name: string; def: string }[]>(
    `SELECT c.conrelid::regclass::text AS owner, c.conname::text AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c
      WHERE c.contype = 'f'
        AND (c.conrelid = 'webhook_attempts'::regclass OR c.conrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'webhook_attempts'::regclass)
             OR c.confrelid = 'webhook_deliveries'::regclass)`,
  );

it("each month's attempts have their own foreign key to that month's deliveries, none on the parents; deleting a delivery still takes its attempts", async () => {
  const now = new Date();
  await ensureDeliveryPartitions(new Date(now.getTime() - 70 * DAY));
  await ensureDeliveryPartitions(now);
  const months = (await monthPartitions("webhook_attempts")).map((p) => p.name);
  expect(months.length).toBeGreaterThanOrEqual(MONTHS_AHEAD + 2);
  expect((await logForeignKeys()).sort((a, b) => (a.owner < b.owner ? -1 : 1))).toEqual(
    [...months, "webhook_attempts_default"].sort().map((a) => ({
      owner: a,
      name: `${a}_delivery_fkey`,
      def: `FOREIGN KEY (delivery_id, delivery_created_at) REFERENCES ${a.replace("webhook_attempts", "webhook_deliveries")}(id, created_at) ON UPDATE CASCADE ON DELETE CASCADE`,
    })),
  );

  const shop = await shopWithEndpoints(1);
  const published = await publishAt(shop.id, new Date(now.getTime() - DAY));
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: published.deliveryIds } } })).toBe(1);
  await prisma.webhookDelivery.deleteMany({ where: { id: { in: published.deliveryIds } } });
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: published.deliveryIds } } })).toBe(0);
});

it("dropping an expired month reads no other month: it goes while another session holds every kept month locked", async () => {
  const now = new Date();
  const old = new Date(now.getTime() - 70 * DAY);
  await ensureDeliveryPartitions(old);
  await ensureDeliveryPartitions(now);
  const shop = await shopWithEndpoints(2);
  const gone = await publishAt(shop.id, old);
  const kept = await publishAt(shop.id, new Date(now.getTime() - DAY));
  const cutoff = now.getTime() - DELIVERY_RETENTION_DAYS * DAY;
  const expired = (await monthPartitions("webhook_deliveries")).filter((p) => p.to.getTime() <= cutoff).map((p) => p.name);
  expect(expired).toContain(partitionName("webhook_deliveries", monthOf(old)));
  const keptMonths = [...(await monthPartitions("webhook_deliveries")), ...(await monthPartitions("webhook_attempts"))]
    .filter((p) => p.to.getTime() > cutoff)
    .map((p) => p.name);
  expect(keptMonths.length).toBeGreaterThanOrEqual(2 * (MONTHS_AHEAD + 1));

  // ACCESS EXCLUSIVE on every kept month of both tables: any statement that read one of them (a
  // foreign-key check over the attempts, a scan of the parent) would wait here, and the drop's
  // lock_timeout would fail it. With a key on the parents, the drop's check read every month.
  const other = await session();
  try {
    await other.query("BEGIN");
    await other.query(`LOCK TABLE ${keptMonths.map((n) => `"${n}"`).join(", ")} IN ACCESS EXCLUSIVE MODE`);
    // The locks bite: a read of the whole attempts table waits for them.
    const probe = await session();
    try {
      await probe.query(`SET lock_timeout = '200ms'`);
      await expect(probe.query(`SELECT count(*) FROM webhook_attempts`)).rejects.toThrow(/lock timeout/);
    } finally {
      await probe.end();
    }

    expect(await dropExpiredDeliveryPartitions(now)).toEqual(expired);
  } finally {
    await other.query("ROLLBACK").catch(() => undefined);
    await other.end();
  }

  for (const name of expired) {
    expect(await exists(name)).toBe(false);
    expect(await exists(name.replace("webhook_deliveries", "webhook_attempts"))).toBe(false);
  }
  expect(await prisma.webhookDelivery.count({ where: { id: { in: gone.deliveryIds } } })).toBe(0);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: gone.deliveryIds } } })).toBe(0);
  expect(await prisma.webhookDelivery.count({ where: { id: { in: kept.deliveryIds } } })).toBe(2);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: { in: kept.deliveryIds } } })).toBe(2);
});

it("a long read of the log makes the drop let go of its lock wait and try again, so the app's writes are not queued behind it; the month goes once the read ends", async () => {
  const now = new Date();
  const old = new Date(now.getTime() - 70 * DAY);
  await ensureDeliveryPartitions(old);
  await ensureDeliveryPartitions(now);
  const shop = await shopWithEndpoints(1);
  await publishAt(shop.id, old);
  const oldMonth = partitionName("webhook_deliveries", monthOf(old));

  // A report reading the log in a long transaction: ACCESS SHARE on the parent until it ends.
  const reader = await session();
  const watcher = await session();
  /** Whether some session is waiting for ACCESS EXCLUSIVE on the delivery log's parent. */
  const dropWaiting = async () =>
    (
      await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'webhook_deliveries'::regclass AND mode = 'AccessExclusiveLock' AND NOT granted`,
      )
    ).rows[0].n > 0;
  const until = async (want: boolean) => {
    for (let i = 0; i < 2_000 && (await dropWaiting()) !== want; i++) await new Promise((r) => setTimeout(r, 5));
    return (await dropWaiting()) === want;
  };
  let drop: Promise<string[]> | undefined;
  try {
    await reader.query("BEGIN");
    await reader.query("SELECT count(*) FROM webhook_deliveries");
    drop = dropExpiredDeliveryPartitions(now);
    // The drop waits for its lock, gives the wait up (the queue behind it empties), and waits again.
    expect(await until(true)).toBe(true);
    expect(await until(false)).toBe(true);
    // Between two waits, an insert into the log (the app's publish) goes straight through.
    const published = await publishAt(shop.id, new Date(now.getTime() - DAY));
    expect(published.deliveryIds).toHaveLength(1);
    expect(await until(true)).toBe(true);
    expect(await exists(oldMonth)).toBe(true);
  } finally {
    await reader.query("COMMIT").catch(() => undefined);
    await reader.end();
    await watcher.end();
  }
  expect(await drop).toContain(oldMonth);
  expect(await exists(oldMonth)).toBe(false);
});
