// The daily sweep: retention rules of the spec, each one idempotent SQL statement.
import { prisma } from "../db.server";
import { log } from "../log.server";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export type SweepReport = Record<string, number>;

export async function runDailySweep(now = new Date()): Promise<SweepReport> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const report: SweepReport = {};
  // Exports (spec 2): bytes downloadable 24 h from ready_at; stuck jobs released after 24 h;
  // records removed 7 days after creation.
  report.exportsExpired = (
    await prisma.exportJob.updateMany({ where: { status: "ready", readyAt: { lt: ago(DAY) } }, data: { status: "expired", storageKey: null } })
  ).count;
  report.exportsReleased = (
    await prisma.exportJob.updateMany({
      where: { status: { in: ["queued", "running"] }, createdAt: { lt: ago(DAY) } },
      data: { status: "failed", activeSlot: null, errorCode: "render_failed", errorMessage: "The export did not finish within 24 hours and was released." },
    })
  ).count;
  report.exportsDeleted = (await prisma.exportJob.deleteMany({ where: { createdAt: { lt: ago(7 * DAY) } } })).count;
  // Idempotency keys are forgotten after 24 h (spec 1).
  report.idempotencyForgotten = (await prisma.idempotencyRecord.deleteMany({ where: { createdAt: { lt: ago(DAY) } } })).count;
  // Outbound delivery log retention: 30 days (spec 3).
  report.deliveriesPruned = (await prisma.webhookDelivery.deleteMany({ where: { createdAt: { lt: ago(30 * DAY) } } })).count;
  // Inbound webhook ids are kept 7 days: Shopify retries a webhook for up to 48 hours.
  report.inboundWebhooksPruned = (await prisma.inboundWebhook.deleteMany({ where: { receivedAt: { lt: ago(7 * DAY) } } })).count;
  log.info("daily sweep", report);
  return report;
}
