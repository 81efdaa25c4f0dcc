// The retention rules of the tables that grow with every shop's traffic, each deleted in batches
// through an index that leads on its age (docs/decisions/144-bounded-tables.md). Run by the daily sweep.
//   idempotency keys     24 h  (docs/decisions/021-idempotency.md)
//   inbound webhook ids  7 days (Shopify retries a webhook for up to 48 hours)
//   delivery log         30 days (/docs#section/Decisions-on-open-points), attempts with it: whole
//                        months dropped once past it (delivery-partitions.server.ts, decision 169);
//                        only the DEFAULT partition's rows are deleted here
//   events               EVENT_RETENTION_DAYS (90): past the delivery log, so an event outlives
//                        every delivery of it; a contract's history page shows that window
//   billing history      BILLING_HISTORY_RETENTION_DAYS (730): settled cycles (paid, refused, or
//                        failed with the final action taken) and their attempts, by due date;
//                        a cycle still charging, in dunning or awaiting its final action is kept
import { Prisma } from "@prisma/client";
import { env } from "../../env.server";
import { deleteInBatches, type BatchedTable } from "../../infra/batched-delete.server";
import { DELIVERY_RETENTION_DAYS } from "./delivery-partitions.server";

const DAY = 86_400_000;

export interface RetentionRule {
  table: BatchedTable;
  report: string;
  /** The rows past retention at `now`: written to match its table's index (and a partial index's predicate). */
  where: (now: Date) => Prisma.Sql;
}

const before = (now: Date, ms: number) => new Date(now.getTime() - ms);

export const RETENTION_RULES: RetentionRule[] = [
  { table: "idempotency_records", report: "idempotencyForgotten", where: (now) => Prisma.sql`created_at < ${before(now, DAY)}` },
  {
    table: "webhook_deliveries_default",
    report: "deliveriesPruned",
    where: (now) => Prisma.sql`created_at < ${before(now, DELIVERY_RETENTION_DAYS * DAY)}`,
  },
  { table: "inbound_webhooks", report: "inboundWebhooksPruned", where: (now) => Prisma.sql`received_at < ${before(now, 7 * DAY)}` },
  // A token only has to outlive its event's 15-minute signature window (docs/decisions/102).
  { table: "mailgun_event_tokens", report: "mailgunTokensForgotten", where: (now) => Prisma.sql`seen_at < ${before(now, DAY)}` },
  { table: "events", report: "eventsPruned", where: (now) => Prisma.sql`created_at < ${before(now, env().EVENT_RETENTION_DAYS * DAY)}` },
  {
    table: "billing_cycles",
    report: "billingCyclesPruned",
    // The predicate of billing_cycles_settled_idx, word for word, so the planner can use it.
    where: (now) =>
      Prisma.sql`(status IN ('PAID', 'REFUSED') OR (status = 'FAILED' AND final_action_at IS NOT NULL)) AND cycle_at < ${before(now, env().BILLING_HISTORY_RETENTION_DAYS * DAY)}`,
  },
];

export async function applyRetention(now: Date): Promise<Record<string, number>> {
  const report: Record<string, number> = {};
  for (const rule of RETENTION_RULES) report[rule.report] = await deleteInBatches(rule.table, rule.where(now));
  return report;
}
