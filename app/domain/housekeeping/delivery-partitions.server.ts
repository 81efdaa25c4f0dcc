// The delivery log's month partitions (docs/decisions/169-delivery-partitions.md).
//
// `webhook_deliveries` is partitioned by month on created_at (the event's time) and
// `webhook_attempts` on delivery_created_at, the same key, so a month of deliveries and its
// attempts sit in partitions of the same name suffix: <table>_yYYYYmMM. The daily sweep
//   - keeps this month and the next MONTHS_AHEAD created (inserts never wait on a partition), and
//   - drops a month once all of it is older than the retention window: its attempts' partition,
//     then its deliveries' partition, two DROP TABLEs. No row is deleted one by one.
// The attempts' foreign key is declared per month, webhook_attempts_yM to webhook_deliveries_yM
// (DEFAULT to DEFAULT), never on the parents: a key on the parents made dropping a month check
// the whole attempts table, every kept month, under an exclusive lock on the delivery log
// (docs/decisions/170-per-month-foreign-keys.md).
// A row whose month has no partition lands in the DEFAULT partition (an event dated far from now).
// When its month is created later, its rows move out of DEFAULT into the new month; rows of DEFAULT
// past the retention window are deleted in batches, like any other log (retention.server.ts).
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";

/** Months kept created beyond the current one. */
export const MONTHS_AHEAD = 2;
/** The delivery log's retention (docs/decisions/144-bounded-tables.md, 169). */
export const DELIVERY_RETENTION_DAYS = 30;
const DAY = 86_400_000;
/**
 * How long a DDL transaction waits for its locks before it lets go and tries again. While it waits,
 * every later statement on the table queues behind it, so the wait is kept short and retried
 * (docs/decisions/172-short-lock-waits.md): a long read of the log delays the sweep, never the app.
 */
export const LOCK_WAIT_MS = 200;
/** Tries before the sweep fails and leaves the month to its next run, LOCK_RETRY_PAUSE_MS apart. */
const LOCK_TRIES = 10;
const LOCK_RETRY_PAUSE_MS = 1_000;

const DELIVERIES = "webhook_deliveries";
const ATTEMPTS = "webhook_attempts";
type Parent = typeof DELIVERIES | typeof ATTEMPTS;

export const monthOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const addMonths = (m: Date, n: number) => new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + n, 1));
const day = (d: Date) => d.toISOString().slice(0, 10);
/** `webhook_deliveries_y2026m11`: an identifier made here, never from input. */
export const partitionName = (parent: Parent, month: Date) => `${parent}_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
/** The foreign key of a month's attempts (or DEFAULT's) to the same month's deliveries: `webhook_attempts_y2026m11_delivery_fkey`. */
export const monthForeignKeyName = (attemptsPartition: string) => `${attemptsPartition}_delivery_fkey`;

/** The per-month key (docs/decisions/170): the month's attempts reference the same month's deliveries, and go when their delivery is deleted. */
export const monthForeignKeySql = (attemptsPartition: string, deliveriesPartition: string) =>
  `ALTER TABLE "${attemptsPartition}" ADD CONSTRAINT "${monthForeignKeyName(attemptsPartition)}" FOREIGN KEY ("delivery_id", "delivery_created_at") ` +
  `REFERENCES "${deliveriesPartition}" ("id", "created_at") ON DELETE CASCADE ON UPDATE CASCADE`;

export interface MonthPartition {
  name: string;
  from: Date;
  to: Date;
}

/**
 * The month partitions of a parent, oldest first, from the catalogue (DEFAULT left out). The bounds
 * are read with pg_get_expr(..., 0): a range of constants needs no relation to print, and naming
 * the partition would take a lock on each, so the listing would wait behind any lock on any month
 * (docs/decisions/170-per-month-foreign-keys.md).
 */
export async function monthPartitions(parent: Parent, db: Prisma.TransactionClient = prisma): Promise<MonthPartition[]> {
  const rows = await db.$queryRaw<{ name: string; bound: string }[]>`
    SELECT c.relname::text AS name, pg_get_expr(c.relpartbound, 0) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = ${parent}::regclass`;
  const utc = (s: string) => new Date(s.replace(" ", "T") + "Z");
  return rows
    .map((r) => ({ name: r.name, m: /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(r.bound) }))
    .filter((r): r is { name: string; m: RegExpExecArray } => r.m !== null)
    .map((r) => ({ name: r.name, from: utc(r.m[1]), to: utc(r.m[2]) }))
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/** PostgreSQL's lock_not_available, as Prisma's driver adapter reports it. */
function isLockTimeout(err: unknown): boolean {
  const meta = err instanceof Prisma.PrismaClientKnownRequestError ? (err.meta as { driverAdapterError?: { cause?: { originalCode?: string } } }) : undefined;
  return meta?.driverAdapterError?.cause?.originalCode === "55P03";
}

/**
 * One DDL transaction whose statements wait at most LOCK_WAIT_MS for a lock; one that timed out is
 * rolled back whole and tried again after a pause, up to LOCK_TRIES times.
 */
async function withShortLockWaits(what: string, work: (tx: Prisma.TransactionClient) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`);
        await work(tx);
      });
      return;
    } catch (err) {
      if (!isLockTimeout(err) || attempt >= LOCK_TRIES) throw err;
      log.info("delivery log DDL: a lock was busy, trying again", { what, attempt });
      await new Promise((r) => setTimeout(r, LOCK_RETRY_PAUSE_MS));
    }
  }
}

/**
 * One month's pair of partitions, created beside the tables and attached (ATTACH takes a lock that
 * lets reads and writes go on; CREATE TABLE ... PARTITION OF would block them). Rows of that month
 * in DEFAULT move into it first, attempts before deliveries: deleting a delivery from DEFAULT
 * cascades to its attempts, and by then they are in the new table, which is not attached yet.
 * Once both are attached, the month's foreign key is added: it checks only this month's attempts
 * (none, or the few moved from DEFAULT), and its locks are on this month's two tables.
 */
async function createMonth(month: Date): Promise<void> {
  const from = day(month);
  const to = day(addMonths(month, 1));
  const d = partitionName(DELIVERIES, month);
  const a = partitionName(ATTEMPTS, month);
  await withShortLockWaits(`create ${d}`, async (tx) => {
    const x = (sql: string) => tx.$executeRawUnsafe(sql);
    await x(`CREATE TABLE "${d}" (LIKE "${DELIVERIES}" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await x(`CREATE TABLE "${a}" (LIKE "${ATTEMPTS}" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    const inMonth = (col: string) => `"${col}" >= '${from}' AND "${col}" < '${to}'`;
    await x(`INSERT INTO "${a}" SELECT * FROM "${ATTEMPTS}_default" WHERE ${inMonth("delivery_created_at")}`);
    await x(`INSERT INTO "${d}" SELECT * FROM "${DELIVERIES}_default" WHERE ${inMonth("created_at")}`);
    await x(`DELETE FROM "${ATTEMPTS}_default" WHERE ${inMonth("delivery_created_at")}`);
    await x(`DELETE FROM "${DELIVERIES}_default" WHERE ${inMonth("created_at")}`);
    await x(`ALTER TABLE "${DELIVERIES}" ATTACH PARTITION "${d}" FOR VALUES FROM ('${from}') TO ('${to}')`);
    await x(`ALTER TABLE "${ATTEMPTS}" ATTACH PARTITION "${a}" FOR VALUES FROM ('${from}') TO ('${to}')`);
    await x(monthForeignKeySql(a, d));
  });
}

/** This month and the next MONTHS_AHEAD exist as partitions; answers the months created. */
export async function ensureDeliveryPartitions(now: Date): Promise<string[]> {
  const have = new Set((await monthPartitions(DELIVERIES)).map((p) => p.name));
  const created: string[] = [];
  for (let i = 0; i <= MONTHS_AHEAD; i++) {
    const month = addMonths(monthOf(now), i);
    if (have.has(partitionName(DELIVERIES, month))) continue;
    await createMonth(month);
    created.push(partitionName(DELIVERIES, month));
  }
  return created;
}

/** Every month whose end is past the retention window, dropped whole; answers the months dropped. */
export async function dropExpiredDeliveryPartitions(now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - DELIVERY_RETENTION_DAYS * DAY);
  const dropped: string[] = [];
  for (const p of await monthPartitions(DELIVERIES)) {
    if (p.to.getTime() > cutoff.getTime()) break;
    const attempts = partitionName(ATTEMPTS, p.from);
    // The attempts' month holds the only reference to the deliveries' month (its own foreign key,
    // docs/decisions/170): dropped first, it takes that key with it, and the deliveries' month is
    // then dropped with nothing to check. Neither statement reads a row of any other month.
    // The parents alone (ONLY: not their months) are locked first, deliveries then attempts, the
    // order the app's statements take them: a DROP TABLE locks its partition before its parent,
    // and a statement on the parent that already held the parent and wanted that partition made
    // a deadlock (npm run bench:locks, docs/decisions/170).
    await withShortLockWaits(`drop ${p.name}`, async (tx) => {
      await tx.$executeRawUnsafe(`LOCK TABLE ONLY "${DELIVERIES}", ONLY "${ATTEMPTS}" IN ACCESS EXCLUSIVE MODE`);
      await tx.$executeRawUnsafe(`DROP TABLE IF EXISTS "${attempts}"`);
      await tx.$executeRawUnsafe(`DROP TABLE "${p.name}"`);
    });
    dropped.push(p.name);
  }
  return dropped;
}
