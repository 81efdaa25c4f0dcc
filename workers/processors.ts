// What each queue's jobs do. Processors only call domain code, and every one of them is
// safe to run twice: a job interrupted by a crash is run again from the start.
import type { Job } from "bullmq";
import { QUEUES, queue, type QueueName } from "../app/queues.server";
import { prisma } from "../app/db.server";
import { reconcileShop, syncContractFromWebhook, type ContractWebhook } from "../app/domain/mirror.server";
import { customerDataReport, redactCustomer, redactShop, type CustomerRef } from "../app/domain/shop-lifecycle.server";
import { runDailySweep } from "../app/domain/sweeps.server";
import { syncSellingPlanGroup, syncStorefrontMetafields, type SellingPlanGroupWebhook } from "../app/domain/storefront-sync.server";
import { renderExport } from "../app/domain/exports/render.server";
import { requeueLostExports } from "../app/domain/exports/sweep.server";
import type { ExportRenderPayload } from "../app/queues.server";

type Processor = (job: Job) => Promise<unknown>;

export const PROCESSORS: Record<QueueName, Record<string, Processor>> = {
  [QUEUES.mirror]: {
    "sync-contract": (job) => syncContractFromWebhook(job.data as ContractWebhook),
    "reconcile-shop": (job) => reconcileShop((job.data as { domain: string }).domain),
    // A plan changed on the platform: mirror its child plans, then the storefront metafields.
    "sync-selling-plan-group": (job) => syncSellingPlanGroup(job.data as SellingPlanGroupWebhook),
    // The storefront metafields of one shop, all rewritten (the nightly repair of drift).
    "sync-storefront": (job) => syncStorefrontMetafields((job.data as { domain: string }).domain, { force: true }),
  },
  [QUEUES.privacy]: {
    "redact-shop": (job) => redactShop((job.data as { domain: string }).domain),
    "redact-customer": (job) => redactCustomer(job.data as CustomerRef),
    "customer-data-request": (job) => customerDataReport(job.data as CustomerRef & { requestId: string }),
  },
  [QUEUES.sweeps]: {
    "daily-sweep": () => runDailySweep(),
    // Nightly drift repair: every installed shop's mirror is rebuilt from the platform.
    "reconcile-all": async () => {
      const shops = await prisma.shop.findMany({ where: { installState: "INSTALLED" }, select: { domain: true } });
      const day = new Date().toISOString().slice(0, 10);
      await queue(QUEUES.mirror).addBulk(
        shops.flatMap((s) => [
          { name: "reconcile-shop", data: { domain: s.domain }, opts: { jobId: `reconcile-${s.domain}-${day}` } },
          { name: "sync-storefront", data: { domain: s.domain }, opts: { jobId: `storefront-${s.domain}-${day}` } },
        ]),
      );
      return { shops: shops.length };
    },
    // Exports whose BullMQ job Redis lost are handed to the queue again (PostgreSQL is the truth).
    "exports-requeue": () => requeueLostExports(new Date()),
  },
  [QUEUES.exports]: {
    // A retryable failure throws (BullMQ retries with back-off); on the last attempt it fails the job.
    render: (job) => renderExport((job.data as ExportRenderPayload).exportId, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
  },
};

/** Daily job schedulers (BullMQ's own, persisted in Redis; upserted at every worker start). */
export const SCHEDULES = [
  { queue: QUEUES.sweeps, id: "daily-sweep", pattern: "0 3 * * *", name: "daily-sweep" },
  { queue: QUEUES.sweeps, id: "reconcile-all", pattern: "30 3 * * *", name: "reconcile-all" },
  { queue: QUEUES.sweeps, id: "exports-requeue", pattern: "*/5 * * * *", name: "exports-requeue" },
] as const;
