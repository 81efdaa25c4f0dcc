// Inbound Shopify webhooks: verified (HMAC over the raw body, by the Shopify library),
// deduplicated on X-Shopify-Webhook-Id, then handed to a queue so Shopify gets its 200 fast.
// app/uninstalled is the one topic done inline: revoking credentials must not wait in a queue,
// and it is a handful of UPDATEs in the same transaction as the dedupe row.
import type { ContractStatus } from "@prisma/client";
import { prisma } from "../db.server";
import { log } from "../log.server";
import { QUEUES, queue, type QueueName } from "../queues.server";
import { removeExportFiles, uninstallShop } from "../domain/shop-lifecycle.server";

export const SHOPIFY_TOPICS = [
  "subscription_contracts/create",
  "subscription_contracts/update",
  "selling_plan_groups/update",
  "app/uninstalled",
  "shop/redact",
  "customers/redact",
  "customers/data_request",
] as const;
export type ShopifyTopic = (typeof SHOPIFY_TOPICS)[number];

const storageForm = (topic: string) => topic.toUpperCase().replace(/\/|\./g, "_");

type Payload = Record<string, unknown>;

/** The job each topic becomes (queue, job name, data); null for topics handled inline. */
function jobFor(topic: ShopifyTopic, shop: string, webhookId: string, payload: Payload): { queue: QueueName; name: string; data: object } | null {
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
      return {
        queue: QUEUES.privacy,
        name: topic === "customers/redact" ? "redact-customer" : "customer-data-request",
        data: { domain: shop, customerGid: `gid://shopify/Customer/${customer.id}`, email: customer.email ?? null, requestId: String(request.id ?? webhookId) },
      };
    }
    case "app/uninstalled":
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

  // The dedupe row is one INSERT; only app/uninstalled needs it in a transaction with its work.
  const seen = { data: [{ webhookId, shopDomain: shop, topic: expected }], skipDuplicates: true };
  const outcome =
    expected === "app/uninstalled"
      ? await prisma.$transaction(async (tx) => {
          if ((await tx.inboundWebhook.createMany(seen)).count === 0) return { duplicate: true as const };
          return { duplicate: false as const, uninstall: await uninstallShop(shop, tx) };
        })
      : { duplicate: (await prisma.inboundWebhook.createMany(seen)).count === 0, uninstall: null };
  if (outcome.duplicate) {
    log.info("shopify webhook replay ignored", { webhookId, topic: expected, shop });
    return new Response(null, { status: 200 });
  }
  if (outcome.uninstall) await removeExportFiles(outcome.uninstall.storageKeys);

  const job = jobFor(expected, shop, webhookId, payload);
  if (job) {
    try {
      await queue(job.queue).add(job.name, job.data, { jobId: `shopify-${webhookId}` });
    } catch (err) {
      // Not queued: forget the id so Shopify's retry is processed, and tell Shopify to retry.
      log.error("shopify webhook enqueue failed", { err, webhookId, topic: expected });
      await prisma.inboundWebhook.delete({ where: { webhookId } }).catch(() => undefined);
      return new Response(null, { status: 500 });
    }
  }
  return new Response(null, { status: 200 });
}
