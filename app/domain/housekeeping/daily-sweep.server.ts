// The daily sweep: retention rules (docs/decisions/004, 057, 021, 144, 169), each idempotent, deleting in batches
// or dropping whole months.
import { log } from "../../infra/log.server";
import { sweepExports } from "../exports/sweep.server";
import { pruneAuditEvents } from "../audit/reads.server";
import { applyRetention } from "./retention.server";
import { dropExpiredDeliveryPartitions, ensureDeliveryPartitions } from "./delivery-partitions.server";

export type SweepReport = Record<string, number>;

export async function runDailySweep(now = new Date()): Promise<SweepReport> {
  const report: SweepReport = {};
  // Exports (docs/decisions/057-export-jobs.md): expiry (bytes deleted), stuck-job release, 7-day record retention.
  Object.assign(report, await sweepExports(now));
  // The delivery log's months: the next ones created ahead, the ones past retention dropped whole
  // with their attempts (docs/decisions/169-delivery-partitions.md).
  report.deliveryMonthsCreated = (await ensureDeliveryPartitions(now)).length;
  report.deliveryMonthsDropped = (await dropExpiredDeliveryPartitions(now)).length;
  // Idempotency keys, inbound webhook ids, the delivery log's DEFAULT partition, events and settled
  // billing history, each deleted in bounded batches (app/domain/housekeeping/retention.server.ts).
  Object.assign(report, await applyRetention(now));
  // The audit trail is kept 400 days (docs/decisions/125-audit-log.md).
  report.auditEventsPruned = await pruneAuditEvents(now);
  log.info("daily sweep", report);
  return report;
}
