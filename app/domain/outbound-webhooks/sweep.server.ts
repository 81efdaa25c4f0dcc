// The webhook sweeper (docs/decisions/051-webhook-durability.md): PostgreSQL is the truth and
// Redis only the fast path, so every run hands back to the queues what Redis may have lost:
//   - inbound Shopify webhooks stored (before their 200) but not yet processed;
//   - deliveries still owed an attempt whose time has passed;
//   - Flow trigger calls still owed whose time has passed (docs/decisions/128-flow-triggers.md).
// Both use the job ids the first enqueue used, so a job Redis still holds is not duplicated,
// and a job that runs twice does nothing the second time. Runs every minute (job scheduler
// "webhooks-requeue", workers/processors.ts SCHEDULES; WEBHOOK_SWEEP_CRON).
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { QUEUES, enqueueSpec, type AnyJobSpec } from "../../infra/queues.server";
import { enqueueAttempts, enqueueFirstAttempts, enqueueFlowCalls } from "./jobs.server";

const BATCH = 500;
const MAX_PER_RUN = 20_000;

export const inboundJobId = (webhookId: string) => `shopify-${webhookId}`;

export async function markInboundProcessed(webhookId: string): Promise<void> {
  await prisma.inboundWebhook.updateMany({ where: { webhookId, processedAt: null }, data: { processedAt: new Date() } });
}

export async function requeueWebhookWork(
  now = new Date(),
  graceMs = env().WEBHOOK_SWEEP_GRACE_MS,
): Promise<{ inbound: number; deliveries: number; flowCalls: number }> {
  const before = new Date(now.getTime() - graceMs);
  let inbound = 0;
  let after = "";
  while (inbound < MAX_PER_RUN) {
    const rows = await prisma.inboundWebhook.findMany({
      where: { processedAt: null, receivedAt: { lte: before }, webhookId: { gt: after }, NOT: { job: { equals: Prisma.AnyNull } } },
      orderBy: { webhookId: "asc" },
      take: BATCH,
      select: { webhookId: true, job: true },
    });
    if (!rows.length) break;
    for (const r of rows) {
      // Written by the inbound webhook handler from a typed AnyJobSpec (app/shopify/inbound-webhooks.server.ts).
      const job = r.job as unknown as AnyJobSpec | null;
      if (!job || !Object.values(QUEUES).includes(job.queue)) continue;
      await enqueueSpec(job, { jobId: inboundJobId(r.webhookId) });
      inbound++;
    }
    after = rows[rows.length - 1].webhookId;
  }

  // Deliveries owed an attempt, under the job ids their enqueue used (jobs.server.ts): a retry
  // under its delivery's, a first attempt under its event's, together with the event's other
  // first attempts still owed (an event's deliveries may fall on two pages).
  let deliveries = 0;
  let cursor = "";
  const eventsQueued = new Set<string>();
  while (deliveries < MAX_PER_RUN) {
    const rows = await prisma.webhookDelivery.findMany({
      where: { status: { in: ["pending", "failed"] }, nextAttemptAt: { lte: before }, id: { gt: cursor } },
      orderBy: { id: "asc" },
      take: BATCH,
      select: { id: true, attempts: true, eventId: true },
    });
    if (!rows.length) break;
    await enqueueAttempts(rows.filter((r) => r.attempts > 0).map((r) => ({ deliveryId: r.id, attempt: r.attempts + 1 })));
    const events = [...new Set(rows.filter((r) => r.attempts === 0 && !eventsQueued.has(r.eventId)).map((r) => r.eventId))];
    if (events.length) {
      const firsts = await prisma.webhookDelivery.findMany({
        where: { eventId: { in: events }, attempts: 0, status: "pending" },
        orderBy: { id: "asc" },
        select: { id: true, eventId: true },
      });
      const byEvent = new Map(events.map((eventId) => [eventId, [] as string[]]));
      for (const f of firsts) byEvent.get(f.eventId)!.push(f.id);
      await enqueueFirstAttempts([...byEvent].map(([eventId, deliveryIds]) => ({ eventId, deliveryIds })));
      for (const e of events) eventsQueued.add(e);
    }
    deliveries += rows.length;
    cursor = rows[rows.length - 1].id;
  }
  // Flow trigger calls owed, under their event's job id (a no-op while Redis still holds the job).
  let flowCalls = 0;
  let flowCursor = "";
  while (flowCalls < MAX_PER_RUN) {
    const rows = await prisma.flowTriggerCall.findMany({
      where: { status: "pending", nextAttemptAt: { lte: before }, id: { gt: flowCursor } },
      orderBy: { id: "asc" },
      take: BATCH,
      select: { id: true, eventId: true },
    });
    if (!rows.length) break;
    await enqueueFlowCalls(rows.map((r) => r.eventId));
    flowCalls += rows.length;
    flowCursor = rows[rows.length - 1].id;
  }
  if (inbound || deliveries || flowCalls) log.info("webhook sweeper handed work back to the queues", { inbound, deliveries, flowCalls });
  return { inbound, deliveries, flowCalls };
}
