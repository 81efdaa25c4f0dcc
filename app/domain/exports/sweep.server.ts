// Export retention (docs/decisions/057-export-jobs.md), run by the daily sweep with a clock the caller
// passes (tests drive it): ready -> expired 24 h after ready_at (bytes deleted, record kept);
// queued/running for 24 h -> released (failed, slot freed); every record deleted 7 days after
// creation. Plus the lost-job check: a queued job whose BullMQ job Redis forgot is handed to
// the queue again (the row in PostgreSQL is the truth; docs/decisions/057-export-jobs.md).
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { QUEUES, queue } from "../../infra/queues.server";
import { EXPORT_RETENTION, enqueueRender } from "./jobs.server";
import { exportStorage } from "./storage.server";

export interface ExportSweepReport {
  exportsExpired: number;
  exportsReleased: number;
  exportsDeleted: number;
}

async function removeAll(keys: (string | null)[]): Promise<void> {
  const storage = exportStorage();
  await Promise.all(keys.filter((k): k is string => !!k).map((k) => storage.remove(k).catch((err) => log.warn("export file not removed", { err }))));
}

export async function sweepExports(now: Date): Promise<ExportSweepReport> {
  const ago = (ms: number) => new Date(now.getTime() - ms);

  const expiring = await prisma.exportJob.findMany({
    where: { status: "ready", readyAt: { lte: ago(EXPORT_RETENTION.readyMs) } },
    select: { id: true, storageKey: true },
  });
  const expired = await prisma.exportJob.updateMany({
    where: { id: { in: expiring.map((j) => j.id) }, status: "ready" },
    data: { status: "expired", storageKey: null },
  });
  await removeAll(expiring.map((j) => j.storageKey));

  const released = await prisma.exportJob.updateMany({
    where: { status: { in: ["queued", "running"] }, createdAt: { lte: ago(EXPORT_RETENTION.stuckMs) } },
    data: {
      status: "failed",
      activeSlot: null,
      errorCode: "render_failed",
      errorMessage: "The export did not finish within 24 hours and was released; create it again.",
    },
  });

  const old = await prisma.exportJob.findMany({ where: { createdAt: { lte: ago(EXPORT_RETENTION.recordMs) } }, select: { id: true, storageKey: true } });
  const deleted = await prisma.exportJob.deleteMany({ where: { id: { in: old.map((j) => j.id) } } });
  await removeAll(old.map((j) => j.storageKey));

  return { exportsExpired: expired.count, exportsReleased: released.count, exportsDeleted: deleted.count };
}

/**
 * Jobs queued for over `graceMs` whose BullMQ job is gone (Redis lost its data) are enqueued
 * again; a job BullMQ gave up on (stalled too often) while the row still says running is failed.
 */
export async function requeueLostExports(now: Date, graceMs = 60_000): Promise<{ requeued: number; failed: number }> {
  const waiting = await prisma.exportJob.findMany({
    where: { status: { in: ["queued", "running"] }, createdAt: { lte: new Date(now.getTime() - graceMs) } },
    select: { id: true },
  });
  let requeued = 0;
  let failed = 0;
  for (const { id } of waiting) {
    const job = await queue(QUEUES.exports).getJob(id);
    if (!job) {
      await enqueueRender(id);
      requeued++;
    } else if (await job.isFailed()) {
      failed += (
        await prisma.exportJob.updateMany({
          where: { id, status: { in: ["queued", "running"] } },
          data: { status: "failed", activeSlot: null, errorCode: "render_failed", errorMessage: "The export could not be rendered; create it again." },
        })
      ).count;
    }
  }
  if (requeued || failed) log.warn("lost export jobs", { requeued, failed });
  return { requeued, failed };
}
