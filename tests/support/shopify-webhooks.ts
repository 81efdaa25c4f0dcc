// A webhook to the app as Shopify sends it: the raw body signed with HMAC-SHA256 under the app's
// secret (base64, X-Shopify-Hmac-Sha256) and Shopify's headers; another `secret` forges it. A
// string payload is sent as it is (a body that is not JSON, signed all the same).
import { createHmac, randomUUID } from "node:crypto";
import { env } from "../../app/env.server";

export function postShopifyWebhook(
  appUrl: string,
  topic: string,
  domain: string,
  payload: object | string | null,
  opts: { webhookId?: string; secret?: string; topicHeader?: string } = {},
): Promise<Response> {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  return fetch(`${appUrl}/webhooks/${topic}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": createHmac("sha256", opts.secret ?? env().SHOPIFY_API_SECRET)
        .update(body)
        .digest("base64"),
      "X-Shopify-Topic": opts.topicHeader ?? topic,
      "X-Shopify-Shop-Domain": domain,
      "X-Shopify-Webhook-Id": opts.webhookId ?? randomUUID(),
      "X-Shopify-API-Version": "2026-10",
      "X-Shopify-Triggered-At": new Date().toISOString(),
      "X-Shopify-Event-Id": randomUUID(),
    },
    body,
  });
}
