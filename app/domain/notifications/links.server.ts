// Signed addresses of the mail path, all HMAC-SHA256 under SERVICE_SECRET with a purpose label:
//   - the one-click unsubscribe link (RFC 8058): shop, customer and category, signed, so a POST
//     to it needs no login and cannot be forged for another customer or category;
//   - the VERP return path bounce+<row id>.<sig>@MAIL_BOUNCE_DOMAIN: a DSN that comes back to it
//     names the message it is about, and a forged one is ignored;
//   - the Message-ID, derived from the idempotency key, so a resend of the same message (the one
//     crash window, docs/decisions/101) carries the same Message-ID and receivers can fold it.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { env } from "../../env.server";

const mac = (purpose: string, value: string, len = 16) =>
  createHmac("sha256", env().SERVICE_SECRET).update(`${purpose}\n${value}`).digest("base64url").slice(0, len);

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface UnsubscribeTarget {
  shopId: string;
  customerGid: string;
  category: string;
}

const unsubValue = (t: UnsubscribeTarget) => `${t.shopId}\n${t.customerGid}\n${t.category}`;

export function unsubscribeUrl(t: UnsubscribeTarget): string {
  const q = new URLSearchParams({ s: t.shopId, c: t.customerGid, k: t.category, t: mac("unsubscribe", unsubValue(t), 32) });
  return `${env().SHOPIFY_APP_URL}/email/unsubscribe?${q.toString()}`;
}

/** The target of a signed unsubscribe link, or null when the signature does not match. */
export function verifyUnsubscribe(params: URLSearchParams): UnsubscribeTarget | null {
  const t = { shopId: params.get("s") ?? "", customerGid: params.get("c") ?? "", category: params.get("k") ?? "" };
  const sig = params.get("t") ?? "";
  if (!t.shopId || !t.customerGid || !t.category) return null;
  return same(sig, mac("unsubscribe", unsubValue(t), 32)) ? t : null;
}

export function verpAddress(rowId: string): string {
  return `bounce+${rowId}.${mac("verp", rowId, 12)}@${env().MAIL_BOUNCE_DOMAIN}`;
}

/** The notification row a VERP address names (null when absent or forged). */
export function rowFromVerp(address: string): string | null {
  const m = /bounce\+([a-z0-9]+)\.([A-Za-z0-9_-]{12})@/i.exec(address);
  if (!m) return null;
  return same(m[2], mac("verp", m[1], 12)) ? m[1] : null;
}

export function messageIdFor(shopId: string, idempotencyKey: string): string {
  const h = createHash("sha256").update(`${shopId}\n${idempotencyKey}`).digest("hex").slice(0, 32);
  return `<${h}@${env().MAIL_BOUNCE_DOMAIN}>`;
}

/**
 * A gift's claim link (docs/decisions/136-gift-lifecycle.md): the token is the full HMAC of the
 * claim e-mail's outbox row id (itself random), so it is unguessable without SERVICE_SECRET and
 * is never stored: the sender derives it while rendering the e-mail, the gift keeps its SHA-256.
 */
export const giftClaimToken = (rowId: string) => createHmac("sha256", env().SERVICE_SECRET).update(`gift-claim\n${rowId}`).digest("base64url");
export const giftClaimTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
export const giftClaimUrl = (rowId: string) => `${env().SHOPIFY_APP_URL}/gifts/claim/${giftClaimToken(rowId)}`;

// The win-back come-back link (docs/decisions/117-winback-campaign-job.md): the send id and a MAC
// of shop and send under its own purpose label. The token is derived, so it is never stored (not in
// the ledger, not in the outbox's payload: the address is put into the e-mail when it is rendered);
// single use is the ledger's (the POST claims the send once).
const returnValue = (shopId: string, sendId: string) => `${shopId}\n${sendId}`;

export function winbackReturnUrl(shopId: string, sendId: string): string {
  const q = new URLSearchParams({ s: sendId, t: mac("winback-return", returnValue(shopId, sendId), 32) });
  return `${env().SHOPIFY_APP_URL}/winback/return?${q.toString()}`;
}

/** True when `token` is the MAC of this shop's send (timing-safe). */
export function verifyWinbackReturn(shopId: string, sendId: string, token: string): boolean {
  return same(token, mac("winback-return", returnValue(shopId, sendId), 32));
}
