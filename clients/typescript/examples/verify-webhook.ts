// Verify a webhook delivery in a receiver: the raw body as received, the X-Service-Signature
// header, the endpoint's signing secret. Parse the JSON only after it verifies.
import { verifyWebhook } from "../index";

export function handleDelivery(
  rawBody: string,
  signatureHeader: string | null,
  secret: string,
): { ok: true; event: { id: string; type: string } } | { ok: false } {
  if (!verifyWebhook(rawBody, signatureHeader, secret)) return { ok: false };
  const event = JSON.parse(rawBody) as { id: string; type: string };
  return { ok: true, event };
}
