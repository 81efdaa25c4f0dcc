// The lost-job check of migration imports (docs/decisions/086-import-sweeper.md), as exports
// have (app/domain/exports/sweep.server.ts): the import's row in PostgreSQL is the truth, its
// BullMQ job only the fast path. An import queued or running whose job Redis forgot (a restart
// without persistence, a failover to an empty replica, an eviction) is handed to the queue
// again; the run resumes from its items and ledger, so nothing is created twice
// (docs/decisions/085-migration-import.md). Run by the "imports-requeue" job scheduler.
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { QUEUES, queue } from "../../infra/queues.server";
import { enqueueImport } from "./start.server";

/**
 * Imports queued or running for over `graceMs` whose BullMQ job is gone are enqueued again (job
 * id = import id, so a job added meanwhile is not doubled); one BullMQ gave up on (stalled past
 * its limit) while the row still says queued or running is failed, freeing the shop's slot.
 */
export async function requeueLostImports(now: Date, graceMs = 60_000): Promise<{ requeued: number; failed: number }> {
  const waiting = await prisma.migrationImport.findMany({
    where: { status: { in: ["queued", "running"] }, createdAt: { lte: new Date(now.getTime() - graceMs) } },
    select: { id: true },
  });
  let requeued = 0;
  let failed = 0;
  for (const { id } of waiting) {
    const job = await queue(QUEUES.imports).getJob(id);
    if (!job) {
      await enqueueImport(id);
      requeued++;
    } else if (await job.isFailed()) {
      failed += (
        await prisma.migrationImport.updateMany({
          where: { id, status: { in: ["queued", "running"] } },
          data: {
            status: "failed",
            activeSlot: null,
            finishedAt: now,
            errorMessage: job.failedReason?.slice(0, 1000) || "The import could not be run; upload the file again.",
          },
        })
      ).count;
    }
  }
  if (requeued || failed) log.warn("lost import jobs", { requeued, failed });
  return { requeued, failed };
}
