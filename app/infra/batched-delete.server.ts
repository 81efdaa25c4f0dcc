// Deletes that stay small: at most `batch` rows per statement, each statement its own transaction,
// repeated until a statement finds fewer rows than that (docs/decisions/144-bounded-tables.md).
// A retention rule or a shop's erasure over millions of rows then never holds locks, a snapshot
// or the WAL of one huge transaction; its cascades (attempts of deliveries, lines of contracts)
// are bounded by the batch too. Rows another transaction holds are skipped (SKIP LOCKED) and
// taken by the next run, so a sweep never waits on a busy row.
import { Prisma } from "@prisma/client";
import { prisma } from "../db.server";
import { env } from "../env.server";

/** The tables deleted from in batches, with the column that names a row. Identifiers, never input. */
export const BATCHED_TABLES = {
  audit_events: "id",
  billing_cycles: "id",
  contracts: "id",
  events: "id",
  idempotency_records: "id",
  inbound_webhooks: "webhook_id",
  mailgun_event_tokens: "token",
  notification_log: "id",
  webhook_deliveries: "id",
  // The delivery log's DEFAULT partition: months are dropped whole (docs/decisions/169-delivery-partitions.md).
  webhook_deliveries_default: "id",
} as const;
export type BatchedTable = keyof typeof BATCHED_TABLES;

/** One statement: at most `batch` rows of `table` matching `where` (a Prisma.sql condition). */
export function batchDeleteSql(table: BatchedTable, where: Prisma.Sql, batch: number): Prisma.Sql {
  const t = Prisma.raw(`"${table}"`);
  const key = Prisma.raw(`"${BATCHED_TABLES[table]}"`);
  // `= ANY(ARRAY(...))`, not `IN (...)`: the rows are then fetched by their key's index, never by
  // a hash join over the whole table.
  return Prisma.sql`DELETE FROM ${t} WHERE ${key} = ANY(ARRAY(SELECT ${key} FROM ${t} WHERE ${where} LIMIT ${batch} FOR UPDATE SKIP LOCKED))`;
}

/** Deletes every row of `table` matching `where`, `batch` rows per statement; returns how many. */
export async function deleteInBatches(table: BatchedTable, where: Prisma.Sql, batch = env().RETENTION_BATCH_ROWS): Promise<number> {
  const sql = batchDeleteSql(table, where, batch);
  let total = 0;
  for (;;) {
    const n = await prisma.$executeRaw(sql);
    total += n;
    if (n < batch) return total;
  }
}
