// Inbound Shopify webhooks: verified (HMAC over the raw body, by the Shopify library),
// deduplicated on X-Shopify-Webhook-Id and stored in PostgreSQL with the job they become BEFORE
// the 200, then handed to a queue so Shopify gets its 200 fast. Redis is only the fast path: a
// job it loses (or never got) is queued again by the webhook sweeper (docs/decisions/051).
// Two topics are done inline, in the same transaction as the dedupe row: app/uninstalled
// (revoking credentials must not wait in a queue; a handful of UPDATEs) and
// customer_payment_methods/update (publishing its event needs no platform call).
import type { ContractStatus, Prisma } from "@prisma/client";
import { prisma } from "../db.server";
import { log } from "../infra/log.server";
import { QUEUES, enqueueSpec, type AnyJobSpec, type BillingOutcomePayload } from "../infra/queues.server";
import { removeExportFiles, uninstallShop } from "../domain/shop/lifecycle.server";
import { inboundJobId } from "../domain/outbound-webhooks/sweep.server";
import { announcePaymentMethodUpdate } from "../domain/outbound-webhooks/payment-methods.server";
import { dispatchDeliveries } from "../domain/outbound-webhooks/jobs.server";

export const SHOPIFY_TOPICS = [
  "subscription_contracts/create",
  "subscription_contracts/update",
  "customer_payment_methods/update",
  "selling_plan_groups/update",
  "app/uninstalled",
  "shop/redact",
  "customers/redact",
  "customers/data_request",
  "subscription_billing_attempts/success",
  "subscription_billing_attempts/failure",
  "subscription_billing_attempts/challenged",
] as const;
export type ShopifyTopic = (typeof SHOPIFY_TOPICS)[number];

const storageForm = (topic: string) => topic.toUpperCase().replace(/\/|\./g, "_");

type Payload = Record<string, unknown>;

/** The job each topic becomes (queue, job name, data); null for topics handled inline. */
function jobFor(topic: ShopifyTopic, shop: string, webhookId: string, payload: Payload): AnyJobSpec | null {
  switch (topic) {
    case "subscription_contracts/create":
    case "subscription_contracts/update":
      return {
        queue: QUEUES.mirror,
        name: "sync-contract",
        data: {
          shopDomain: shop,
          webhookId,
          topic,
          contractGid: String(payload.admin_graphql_api_id),
          // The payload's status as the mirror spells it (the platform's enum, upper-cased).
          status: String(payload.status ?? "").toUpperCase() as ContractStatus,
          revision: String(payload.revision_id ?? "0"),
        },
      };
    case "selling_plan_groups/update":
      return {
        queue: QUEUES.mirror,
        name: "sync-selling-plan-group",
        data: { shopDomain: shop, webhookId, groupGid: String(payload.admin_graphql_api_id) },
      };
    case "shop/redact":
      return { queue: QUEUES.privacy, name: "redact-shop", data: { domain: shop } };
    case "customers/redact":
    case "customers/data_request": {
      const customer = (payload.customer ?? {}) as { id?: number | string; email?: string };
      const request = (payload.data_request ?? {}) as { id?: number | string };
      const ref = { domain: shop, customerGid: `gid://shopify/Customer/${customer.id}`, email: customer.email ?? null };
      return topic === "customers/redact"
        ? { queue: QUEUES.privacy, name: "redact-customer", data: ref }
        : { queue: QUEUES.privacy, name: "customer-data-request", data: { ...ref, requestId: String(request.id ?? webhookId) } };
    }
    case "subscription_billing_attempts/success":
    case "subscription_billing_attempts/failure":
    case "subscription_billing_attempts/challenged": {
      // Shopify's billing-attempt payload (docs/decisions/080); the engine matches it by idempotency key.
      const gidOrNull = (v: unknown) => (typeof v === "string" && v.startsWith("gid://") ? v : null);
      const code = typeof payload.error_code === "string" && payload.error_code ? payload.error_code.toUpperCase() : null;
      const data: BillingOutcomePayload = {
        shopDomain: shop,
        webhookId,
        topic,
        attemptGid: gidOrNull(payload.admin_graphql_api_id),
        idempotencyKey: String(payload.idempotency_key ?? ""),
        contractGid: String(payload.admin_graphql_api_subscription_contract_id ?? ""),
        orderGid: gidOrNull(payload.admin_graphql_api_order_id),
        errorCode:
          topic === "subscription_billing_attempts/success"
            ? null
            : (code ?? (topic === "subscription_billing_attempts/challenged" ? "AUTHENTICATION_REQUIRED" : null)),
      };
      return { queue: QUEUES.billing, name: "billing-outcome", data };
    }
    case "app/uninstalled":
    case "customer_payment_methods/update":
      return null;
  }
}

export async function receiveShopifyWebhook(request: Request, expected: ShopifyTopic): Promise<Response> {
  const { authenticate } = await import("../shopify.server");
  let hook: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    hook = await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown; // 401 bad HMAC, 400 missing headers, 405
    throw thrown;
  }
  if (storageForm(hook.topic) !== storageForm(expected)) return new Response(null, { status: 400 });
  const { shop, webhookId } = hook;
  const payload = hook.payload as Payload;

  // The dedupe row, with its job, is one INSERT; only app/uninstalled needs it in a transaction with its work.
  const job = jobFor(expected, shop, webhookId, payload);
  // The stored job is the AnyJobSpec itself: JSON by construction (PAYLOADS_ARE_JSON, app/infra/queues.server.ts).
  const stored = job ? (job as unknown as Prisma.InputJsonObject) : undefined;
  const seen = { data: [{ webhookId, shopDomain: shop, topic: expected, job: stored }], skipDuplicates: true };
  const outcome =
    expected === "app/uninstalled"
      ? await prisma.$transaction(async (tx) => {
          if ((await tx.inboundWebhook.createMany(seen)).count === 0) return { duplicate: true as const, published: [] };
          return { duplicate: false as const, uninstall: await uninstallShop(shop, tx), published: [] };
        })
      : expected === "customer_payment_methods/update"
        ? await prisma.$transaction(async (tx) => {
            if ((await tx.inboundWebhook.createMany(seen)).count === 0) return { duplicate: true as const, published: [] };
            const published = await announcePaymentMethodUpdate(tx, { shopDomain: shop, webhookId, payload });
            await tx.inboundWebhook.update({ where: { webhookId }, data: { processedAt: new Date() } });
            return { duplicate: false as const, uninstall: null, published: published ? [published] : [] };
          })
        : { duplicate: (await prisma.inboundWebhook.createMany(seen)).count === 0, uninstall: null, published: [] };
  if (outcome.duplicate) {
    log.info("shopify webhook replay ignored", { webhookId, topic: expected, shop });
    return new Response(null, { status: 200 });
  }
  if (outcome.uninstall) await removeExportFiles(outcome.uninstall.storageKeys);
  await dispatchDeliveries(outcome.published);

  if (job) {
    try {
      await enqueueSpec(job, { jobId: inboundJobId(webhookId) });
    } catch (err) {
      // Stored already: the sweeper queues it once Redis is back, so Shopify still gets its 200.
      log.warn("shopify webhook stored but not queued; the sweeper will queue it", { err, webhookId, topic: expected });
    }
  }
  return new Response(null, { status: 200 });
}
