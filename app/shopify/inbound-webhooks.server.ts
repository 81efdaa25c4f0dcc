// Inbound Shopify webhooks: verified (HMAC over the raw body, by the Shopify library),
// deduplicated on X-Shopify-Webhook-Id and stored in PostgreSQL with the job they become BEFORE
// the 200, then handed to a queue so Shopify gets its 200 fast. Redis is only the fast path: a
// job it loses (or never got) is queued again by the webhook sweeper (docs/decisions/051).
// Three topics are done inline, in the same transaction as the dedupe row: app/uninstalled
// (revoking credentials must not wait in a queue; a handful of UPDATEs),
// customer_payment_methods/update (publishing its event needs no platform call) and
// bulk_operations/finish (one UPDATE the waiting bulk read sees: docs/decisions/097-bulk-reads.md).
import type { ContractStatus, Prisma } from "@prisma/client";
import { z } from "zod";
import { prisma } from "../db.server";
import { log } from "../infra/log.server";
import { QUEUES, enqueueSpec, type AnyJobSpec } from "../infra/queues.server";
import { type BillingOutcomePayload } from "../infra/job-payloads";
import { removeExportFiles, uninstallShop } from "../domain/shop/lifecycle.server";
import { inboundJobId } from "../domain/outbound-webhooks/sweep.server";
import { announcePaymentMethodUpdate, paymentMethodCustomer } from "../domain/outbound-webhooks/payment-methods.server";
import { dispatchDeliveries } from "../domain/outbound-webhooks/jobs.server";

export const SHOPIFY_TOPICS = [
  "subscription_contracts/create",
  "subscription_contracts/update",
  "customer_payment_methods/update",
  "selling_plan_groups/update",
  "selling_plan_groups/create",
  "selling_plan_groups/delete",
  "app/uninstalled",
  "shop/redact",
  "customers/redact",
  "customers/data_request",
  "subscription_billing_attempts/success",
  "subscription_billing_attempts/failure",
  "subscription_billing_attempts/challenged",
  "app_subscriptions/update",
  "bulk_operations/finish",
  "subscription_billing_cycles/skip",
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
    // One job for the three: it re-reads the group, so a delete (no group any more) archives it.
    case "selling_plan_groups/update":
    case "selling_plan_groups/create":
    case "selling_plan_groups/delete":
      return {
        queue: QUEUES.mirror,
        name: "sync-selling-plan-group",
        data: { shopDomain: shop, webhookId, groupGid: String(payload.admin_graphql_api_id) },
      };
    // A skip made at Shopify (the shopper's own token): its confirmation e-mail (skip-confirmation.server.ts).
    case "subscription_billing_cycles/skip":
      return {
        queue: QUEUES.mirror,
        name: "confirm-cycle-skip",
        data: {
          shopDomain: shop,
          webhookId,
          contractGid: String(payload.admin_graphql_api_subscription_contract_id),
          skippedDate: String(payload.billing_attempt_expected_date),
        },
      };
    // The customer's contracts read again, for their card's expiry (docs/decisions/158).
    case "customer_payment_methods/update": {
      const customerGid = paymentMethodCustomer(payload);
      return customerGid ? { queue: QUEUES.mirror, name: "refresh-customer-cards", data: { shopDomain: shop, webhookId, customerGid } } : null;
    }
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
    case "app_subscriptions/update":
    case "bulk_operations/finish":
      return null;
  }
}

/**
 * What the app reads of each topic's payload. A signed payload that fails its check is one the
 * app will never process: it is recorded and acknowledged (docs/decisions/093), never a 500 that
 * Shopify would retry for two days before removing the subscription.
 */
const gid = (type: string) => z.string().regex(new RegExp(`^gid://shopify/${type}/\\d+$`));
const CONTRACT_STATUSES: readonly string[] = ["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED", "STALE"] satisfies ContractStatus[];
const contractPayload = z.object({
  admin_graphql_api_id: gid("SubscriptionContract"),
  status: z.string().refine((v) => CONTRACT_STATUSES.includes(v.toUpperCase()), "not a contract status"),
  revision_id: z.union([z.string().regex(/^\d{1,19}$/), z.number().int().nonnegative()]).optional(),
});
const PAYLOAD_CHECKS: Partial<Record<ShopifyTopic, z.ZodType>> = {
  "subscription_contracts/create": contractPayload,
  "subscription_contracts/update": contractPayload,
  "selling_plan_groups/update": z.object({ admin_graphql_api_id: gid("SellingPlanGroup") }),
  "selling_plan_groups/create": z.object({ admin_graphql_api_id: gid("SellingPlanGroup") }),
  "selling_plan_groups/delete": z.object({ admin_graphql_api_id: gid("SellingPlanGroup") }),
  "bulk_operations/finish": z.object({ admin_graphql_api_id: gid("BulkOperation"), status: z.string().min(1) }),
  "subscription_billing_cycles/skip": z.object({
    admin_graphql_api_subscription_contract_id: gid("SubscriptionContract"),
    billing_attempt_expected_date: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date"),
  }),
};

/** Why a signed payload cannot be taken, or null when it can. */
function payloadProblem(topic: ShopifyTopic, payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return "the body is not a JSON object";
  // PostgreSQL's jsonb refuses a NUL character, and no field of Shopify's payloads holds one.
  if (JSON.stringify(payload).includes("\\u0000")) return "the body holds a NUL character";
  const check = PAYLOAD_CHECKS[topic]?.safeParse(payload);
  if (check && !check.success) return `${check.error.issues[0].path.join(".") || "body"}: ${check.error.issues[0].message}`;
  return null;
}

/** Records a signed webhook the app will never process and acknowledges it, so Shopify stops sending it. */
async function refuseSigned(webhookId: string, shopDomain: string, topic: string, rejection: string): Promise<Response> {
  await prisma.inboundWebhook.createMany({ data: [{ webhookId, shopDomain, topic, rejection, processedAt: new Date() }], skipDuplicates: true });
  log.warn("shopify webhook refused: signed, but the app will never process it", { webhookId, topic, shop: shopDomain, rejection });
  return new Response(null, { status: 200 });
}

type VerifiedWebhook = { shop: string; webhookId: string; payload: Payload };

/**
 * Authenticates a Shopify webhook for its route's topic (HMAC over the raw body, by the Shopify
 * library) and checks its payload. Returns the webhook, or the answer to send instead: the
 * library's 401/400/405, 400 for a topic that is not the route's, and 200 for a signed message
 * the app will never process (recorded with its reason).
 */
export async function verifyShopifyWebhook(request: Request, expected: ShopifyTopic): Promise<VerifiedWebhook | Response> {
  const { authenticate } = await import("../shopify.server");
  let hook: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    hook = await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown; // 401 bad HMAC, 400 missing headers, 405
    // The library parses the body only after the HMAC matched: a signed body that is not JSON.
    if (thrown instanceof SyntaxError) {
      const header = (name: string) => request.headers.get(name) ?? "";
      return refuseSigned(header("x-shopify-webhook-id"), header("x-shopify-shop-domain"), expected, "the body is not JSON");
    }
    throw thrown;
  }
  if (storageForm(hook.topic) !== storageForm(expected)) return new Response(null, { status: 400 });
  const problem = payloadProblem(expected, hook.payload);
  if (problem) return refuseSigned(hook.webhookId, hook.shop, expected, problem);
  return { shop: hook.shop, webhookId: hook.webhookId, payload: hook.payload as Payload };
}

export async function receiveShopifyWebhook(request: Request, expected: ShopifyTopic): Promise<Response> {
  const verified = await verifyShopifyWebhook(request, expected);
  if (verified instanceof Response) return verified;
  const { shop, webhookId, payload } = verified;

  // The dedupe row, with its job, is one INSERT; only app/uninstalled needs it in a transaction with its work.
  const job = jobFor(expected, shop, webhookId, payload);
  // The stored job is the AnyJobSpec itself: JSON by construction (PAYLOADS_ARE_JSON, app/infra/queues.server.ts).
  const stored = job ? (job as unknown as Prisma.InputJsonObject) : undefined;
  const contractGid = job?.name === "sync-contract" ? job.data.contractGid : null;
  const seen = { data: [{ webhookId, shopDomain: shop, topic: expected, job: stored, contractGid }], skipDuplicates: true };
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
            // With a job, the row is processed once the job ends (the sweeper re-queues it until then).
            if (!job) await tx.inboundWebhook.update({ where: { webhookId }, data: { processedAt: new Date() } });
            return { duplicate: false as const, uninstall: null, published: published ? [published] : [] };
          })
        : expected === "bulk_operations/finish"
          ? await prisma.$transaction(async (tx) => {
              if ((await tx.inboundWebhook.createMany(seen)).count === 0) return { duplicate: true as const, uninstall: null, published: [] };
              // The bulk read waiting on this operation asks Shopify for the result's url at once.
              await tx.bulkRead.updateMany({
                where: { operationGid: String(payload.admin_graphql_api_id), shop: { domain: shop } },
                data: { status: String(payload.status).toUpperCase() },
              });
              await tx.inboundWebhook.update({ where: { webhookId }, data: { processedAt: new Date() } });
              return { duplicate: false as const, uninstall: null, published: [] };
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
