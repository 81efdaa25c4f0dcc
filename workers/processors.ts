// What each queue's jobs do. Processors only call domain code, and every one of them is
// safe to run twice: a job interrupted by a crash is run again from the start.
import { QUEUES, enqueueBulk, type Processors } from "../app/infra/queues.server";
import { prisma } from "../app/db.server";
import { refreshCustomerCards, syncContractFromWebhook } from "../app/domain/subscriptions/mirror.server";
import { reconcileShop } from "../app/domain/subscriptions/reconcile.server";
import { customerDataReport, redactCustomer, redactShop } from "../app/domain/shop/lifecycle.server";
import { runDailySweep } from "../app/domain/housekeeping/daily-sweep.server";
import { runGiftSweep } from "../app/domain/gifts/delivery.server";
import { syncSellingPlanGroup, syncStorefrontMetafields } from "../app/domain/storefront/sync.server";
import { renderExport } from "../app/domain/exports/render.server";
import { requeueLostExports } from "../app/domain/exports/sweep.server";
import { runImport } from "../app/domain/imports/run.server";
import { requeueLostImports } from "../app/domain/imports/sweep.server";
import { attemptDeliveries } from "../app/domain/outbound-webhooks/deliver.server";
import { fireFlowTrigger } from "../app/domain/outbound-webhooks/flow-calls.server";
import { markInboundProcessed, requeueWebhookWork } from "../app/domain/outbound-webhooks/sweep.server";
import { env } from "../app/env.server";
import { runBilling } from "../app/domain/renewals/charge.server";
import { handleBillingOutcome } from "../app/domain/renewals/outcomes.server";
import { queueBillingRuns } from "../app/domain/renewals/jobs.server";
import { sendMailRow } from "../app/domain/notifications/send.server";
import { requeueLostMail } from "../app/domain/notifications/sweep.server";
import { queueCardExpiryNotices } from "../app/domain/notifications/card-expiry.server";
import { queueBoxReminders } from "../app/domain/notifications/box-mail.server";
import { queueBoxCutoffs, runBoxCutoff } from "../app/domain/customer/box-cutoff.server";
import { queueWinbackRuns, runWinback } from "../app/domain/retention/winback-run.server";
import { confirmShopifySkip } from "../app/domain/subscriptions/skip-confirmation.server";

/** A job made from an inbound Shopify webhook (id shopify-<webhook id>) marks its stored row processed, so the sweeper leaves it be. */
const inbound =
  <J extends { id?: string }>(run: (job: J) => Promise<unknown>) =>
  async (job: J) => {
    const result = await run(job);
    if (job.id?.startsWith("shopify-")) await markInboundProcessed(job.id.slice("shopify-".length));
    return result;
  };

// Typed by QueueJobs (app/infra/queues.server.ts): each job's data is the payload its producer sent,
// and a job added there without a processor here is a type error (docs/decisions/040-typed-jobs.md).
export const PROCESSORS: Processors = {
  mirror: {
    "sync-contract": inbound((job) => syncContractFromWebhook(job.data)),
    "reconcile-shop": (job) => reconcileShop(job.data.domain),
    // A plan changed on the platform: mirror its child plans, then the storefront metafields.
    "sync-selling-plan-group": inbound((job) => syncSellingPlanGroup(job.data)),
    // The storefront metafields of one shop, all rewritten (the nightly repair of drift).
    "sync-storefront": (job) => syncStorefrontMetafields(job.data.domain, { force: true }),
    // A skip made at Shopify: its confirmation e-mail.
    "confirm-cycle-skip": inbound((job) => confirmShopifySkip(job.data)),
    // A customer's card changed at Shopify: their contracts' card expiry read again.
    "refresh-customer-cards": inbound((job) => refreshCustomerCards(job.data)),
  },
  privacy: {
    "redact-shop": inbound((job) => redactShop(job.data.domain)),
    "redact-customer": inbound((job) => redactCustomer(job.data)),
    "customer-data-request": inbound((job) => customerDataReport(job.data)),
  },
  sweeps: {
    "daily-sweep": () => runDailySweep(),
    // Nightly drift repair: every installed shop's mirror is rebuilt from the platform.
    "reconcile-all": async () => {
      const shops = await prisma.shop.findMany({ where: { installState: "INSTALLED" }, select: { domain: true } });
      const day = new Date().toISOString().slice(0, 10);
      await enqueueBulk(
        QUEUES.mirror,
        shops.flatMap((s) => [
          { name: "reconcile-shop" as const, data: { domain: s.domain }, opts: { jobId: `reconcile-${s.domain}-${day}` } },
          { name: "sync-storefront" as const, data: { domain: s.domain }, opts: { jobId: `storefront-${s.domain}-${day}` } },
        ]),
      );
      return { shops: shops.length };
    },
    // Exports whose BullMQ job Redis lost are handed to the queue again (PostgreSQL is the truth).
    "exports-requeue": () => requeueLostExports(new Date()),
    // Imports likewise: the run resumes from its items and ledger (docs/decisions/086).
    "imports-requeue": () => requeueLostImports(new Date()),
    // Inbound webhooks and outbound deliveries whose job Redis lost go back to the queues.
    "webhooks-requeue": () => requeueWebhookWork(new Date()),
    // Mail rows owed an attempt whose job Redis lost (docs/decisions/101).
    "mail-requeue": () => requeueLostMail(new Date()),
    // Card-expiring notices, 30 and 7 days before expiry, shop by shop (once each: keyed rows).
    "card-expiry": async () => {
      const shops = await prisma.shop.findMany({ where: { installState: "INSTALLED" }, select: { domain: true } });
      let queued = 0;
      for (const s of shops) queued += await queueCardExpiryNotices(s.domain);
      return { shops: shops.length, queued };
    },
    // Box reminders: subscribers without a pick whose cutoff is within 2 days (once per charge date).
    "box-reminder": async () => {
      const shops = await prisma.shop.findMany({ where: { installState: "INSTALLED" }, select: { domain: true } });
      let queued = 0;
      for (const s of shops) queued += await queueBoxReminders(s.domain);
      return { shops: shops.length, queued };
    },
    // Gifts: claim e-mails due, bounces to tell the gifter, unclaimed windows to close (docs/decisions/136).
    "gifts-tick": () => runGiftSweep(),
    // The selection cutoff: one job per shop with a build-a-box bundle, each idempotent (docs/decisions/106).
    "box-cutoff-tick": () => queueBoxCutoffs(),
    "box-cutoff": (job) => runBoxCutoff(job.data.domain),
    // Win-back campaigns: one run per shop with an active campaign, on the tick's clock (docs/decisions/117).
    "winback-tick": () => queueWinbackRuns(),
    "winback-run": (job) => runWinback(job.data.domain, new Date(job.data.at)),
  },
  exports: {
    // A retryable failure throws (BullMQ retries with back-off); on the last attempt it fails the job.
    render: (job) => renderExport(job.data.exportId, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
  },
  imports: {
    // Resumable: a rerun (crash, retry) skips what the import's items already record as settled.
    run: (job) => runImport(job.data.importId, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
  },
  webhooks: {
    // An event's first attempts, or one delivery's next attempt; a retry is a new (delayed) job (docs/decisions/052).
    deliver: (job) => attemptDeliveries(job.data),
    // An event's Flow trigger call; at least once, retried by BullMQ then the sweeper (docs/decisions/128).
    "flow-trigger": (job) => fireFlowTrigger(job.data),
  },
  billing: {
    // The scheduler's tick: one billing-run job per installed shop (at most one per shop at a time).
    "billing-tick": () => queueBillingRuns(),
    // One shop's run: charges what is due, retries what dunning scheduled, sends reminders.
    "billing-run": (job) => runBilling(job.data.shopDomain),
    // subscription_billing_attempts/success|failure|challenged (docs/decisions/080).
    "billing-outcome": inbound((job) => handleBillingOutcome(job.data)),
  },
  mail: {
    // One message row: claim, decide, render, SMTP, record (app/domain/notifications/send.server.ts).
    send: (job) => sendMailRow(job.data.rowId),
  },
};

/** Daily job schedulers (BullMQ's own, persisted in Redis; upserted at every worker start). */
export const SCHEDULES = [
  { queue: QUEUES.sweeps, id: "daily-sweep", pattern: "0 3 * * *", name: "daily-sweep" },
  { queue: QUEUES.sweeps, id: "reconcile-all", pattern: "30 3 * * *", name: "reconcile-all" },
  { queue: QUEUES.sweeps, id: "exports-requeue", pattern: "*/5 * * * *", name: "exports-requeue" },
  { queue: QUEUES.sweeps, id: "imports-requeue", pattern: "*/5 * * * *", name: "imports-requeue" },
  { queue: QUEUES.sweeps, id: "webhooks-requeue", pattern: env().WEBHOOK_SWEEP_CRON, name: "webhooks-requeue" },
  { queue: QUEUES.sweeps, id: "mail-requeue", pattern: env().WEBHOOK_SWEEP_CRON, name: "mail-requeue" },
  { queue: QUEUES.sweeps, id: "card-expiry", pattern: "0 9 * * *", name: "card-expiry" },
  { queue: QUEUES.sweeps, id: "box-reminder", pattern: "0 9 * * *", name: "box-reminder" },
  { queue: QUEUES.sweeps, id: "box-cutoff-tick", pattern: "20 * * * *", name: "box-cutoff-tick" },
  { queue: QUEUES.sweeps, id: "gifts-tick", pattern: "*/5 * * * *", name: "gifts-tick" },
  { queue: QUEUES.sweeps, id: "winback-tick", pattern: "40 * * * *", name: "winback-tick" },
  { queue: QUEUES.billing, id: "billing-tick", pattern: env().BILLING_CRON, name: "billing-tick" },
] as const;
