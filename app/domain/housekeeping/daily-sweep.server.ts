// The daily sweep: retention rules (docs/decisions/004, 057, 021), each one idempotent SQL statement.
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { sweepExports } from "../exports/sweep.server";
import { pruneAuditEvents } from "../audit/reads.server";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export type SweepReport = Record<string, number>;

export async function runDailySweep(now = new Date()): Promise<SweepReport> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const report: SweepReport = {};
  // Exports (docs/decisions/057-export-jobs.md): expiry (bytes deleted), stuck-job release, 7-day record retention.
  Object.assign(report, await sweepExports(now));
  // Idempotency keys are forgotten after 24 h (docs/decisions/021-idempotency.md).
  report.idempotencyForgotten = (await prisma.idempotencyRecord.deleteMany({ where: { createdAt: { lt: ago(DAY) } } })).count;
  // Outbound delivery log retention: 30 days (/docs#section/Decisions-on-open-points).
  report.deliveriesPruned = (await prisma.webhookDelivery.deleteMany({ where: { createdAt: { lt: ago(30 * DAY) } } })).count;
  // Inbound webhook ids are kept 7 days: Shopify retries a webhook for up to 48 hours.
  report.inboundWebhooksPruned = (await prisma.inboundWebhook.deleteMany({ where: { receivedAt: { lt: ago(7 * DAY) } } })).count;
  // The audit trail is kept 400 days (docs/decisions/125-audit-log.md).
  report.auditEventsPruned = await pruneAuditEvents(now);
  log.info("daily sweep", report);
  return report;
}
