// The daily sweep: retention rules (docs/decisions/004, 057, 021, 144), each idempotent, deleting in batches.
import { log } from "../../infra/log.server";
import { sweepExports } from "../exports/sweep.server";
import { pruneAuditEvents } from "../audit/reads.server";
import { applyRetention } from "./retention.server";

export type SweepReport = Record<string, number>;

export async function runDailySweep(now = new Date()): Promise<SweepReport> {
  const report: SweepReport = {};
  // Exports (docs/decisions/057-export-jobs.md): expiry (bytes deleted), stuck-job release, 7-day record retention.
  Object.assign(report, await sweepExports(now));
  // Idempotency keys, inbound webhook ids, the delivery log, events and settled billing history,
  // each deleted in bounded batches (app/domain/housekeeping/retention.server.ts).
  Object.assign(report, await applyRetention(now));
  // The audit trail is kept 400 days (docs/decisions/125-audit-log.md).
  report.auditEventsPruned = await pruneAuditEvents(now);
  log.info("daily sweep", report);
  return report;
}
