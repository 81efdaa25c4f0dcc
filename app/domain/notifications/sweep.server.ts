// The mail sweeper (docs/decisions/101-mail-outbox.md): rows owed an attempt whose time has passed
// (by MAIL_SWEEP_GRACE_MS) get their job back when Redis no longer holds it in a live state, so a
// flushed Redis or a job that ended without settling its row loses nothing. A duplicate job is
// harmless: the claim lets one of them send. Runs with the webhook sweeper's cron ("mail-requeue").
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { enqueueBulk, queue, QUEUES } from "../../infra/queues.server";
import { mailJobId } from "./outbox.server";

const BATCH = 500;
const MAX_PER_RUN = 50_000;
const LIVE = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

export async function requeueLostMail(now = new Date(), graceMs = env().MAIL_SWEEP_GRACE_MS): Promise<{ requeued: number }> {
  const before = new Date(now.getTime() - graceMs);
  const q = queue(QUEUES.mail);
  let requeued = 0;
  let scanned = 0;
  let cursor = "";
  while (scanned < MAX_PER_RUN) {
    const rows = await prisma.notificationLogEntry.findMany({
      where: {
        status: { in: ["queued", "deferred"] },
        sendAfter: { lte: before },
        idempotencyKey: { not: null },
        id: { gt: cursor },
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      },
      orderBy: { id: "asc" },
      take: BATCH,
      select: { id: true, attempts: true },
    });
    if (!rows.length) break;
    const lost = [];
    for (const r of rows) {
      const job = await q.getJob(mailJobId(r.id, r.attempts));
      const state = job ? await job.getState() : "missing";
      if (LIVE.has(state)) continue;
      // A finished job under the same id would make the add a no-op: a fresh id for the retry.
      lost.push({
        name: "send" as const,
        data: { rowId: r.id },
        opts: { jobId: job ? `${mailJobId(r.id, r.attempts)}-s${now.getTime()}` : mailJobId(r.id, r.attempts) },
      });
    }
    if (lost.length) await enqueueBulk(QUEUES.mail, lost);
    requeued += lost.length;
    scanned += rows.length;
    cursor = rows[rows.length - 1].id;
  }
  if (requeued) log.info("mail sweeper handed messages back to the queue", { requeued });
  return { requeued };
}
