// Customer API sessions (/docs#tag/Customer-API:-Session): `svc_cst_` + a stateless claim signed with
// SERVICE_SECRET naming the shop, the customer and the publishable key it was minted under.
// Nothing is stored: the kernel re-resolves the publishable key on every request, so revoking
// the key ends its sessions, a session from another shop fails, and rotating SERVICE_SECRET
// invalidates every live session.
import { callPlatform } from "../shared/platform-call.server";
import { createHmac } from "node:crypto";
import { env } from "../../env.server";
import { digestsEqual } from "../keys/keys.server";

export const SESSION_PREFIX = "svc_cst_";
export const SESSION_TTL_SECONDS = 1800;

interface Claim {
  v: 1;
  s: string; // shop id
  c: string; // customer gid
  k: string; // publishable key id
  e: number; // expiry, unix seconds
}

function sign(payload: string, secret: string): string {
  return createHmac("sha256", secret).update("cst.v1.").update(payload).digest("base64url");
}

export interface IssuedSession {
  token: string;
  expiresAt: Date;
  expiresIn: number;
}

export function issueCustomerSession(input: { shopId: string; customerId: string; keyId: string }, opts: { now?: Date; secret?: string } = {}): IssuedSession {
  const nowS = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const claim: Claim = { v: 1, s: input.shopId, c: input.customerId, k: input.keyId, e: nowS + SESSION_TTL_SECONDS };
  const payload = Buffer.from(JSON.stringify(claim)).toString("base64url");
  const token = `${SESSION_PREFIX}${payload}.${sign(payload, opts.secret ?? env().SERVICE_SECRET)}`;
  return { token, expiresAt: new Date(claim.e * 1000), expiresIn: SESSION_TTL_SECONDS };
}

export type SessionCheck = { ok: true; customerId: string; expiresAt: Date } | { ok: false; reason: "invalid" | "expired" };

/** Verify a presented session against the shop and publishable key that authenticated this request. */
export function verifyCustomerSession(token: string, expect: { shopId: string; keyId: string }, opts: { now?: Date; secret?: string } = {}): SessionCheck {
  if (!token.startsWith(SESSION_PREFIX) || token.length > 2048) return { ok: false, reason: "invalid" };
  const body = token.slice(SESSION_PREFIX.length);
  const dot = body.indexOf(".");
  if (dot <= 0) return { ok: false, reason: "invalid" };
  const payload = body.slice(0, dot);
  const mac = body.slice(dot + 1);
  if (!digestsEqual(mac, sign(payload, opts.secret ?? env().SERVICE_SECRET))) return { ok: false, reason: "invalid" };
  let claim: Claim;
  try {
    claim = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claim;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (claim?.v !== 1 || typeof claim.c !== "string" || typeof claim.e !== "number") return { ok: false, reason: "invalid" };
  // Signed by us but for another shop or another key: the same refusal as a forgery.
  if (claim.s !== expect.shopId || claim.k !== expect.keyId) return { ok: false, reason: "invalid" };
  const nowS = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (claim.e <= nowS) return { ok: false, reason: "expired" };
  return { ok: true, customerId: claim.c, expiresAt: new Date(claim.e * 1000) };
}

/**
 * Spends a platform customer-account access token on one query for the customer it belongs to
 * (the token is never parsed or trusted). Null when the platform refuses it for any reason:
 * the caller answers every refusal with the same invalid_credential.
 */
export async function customerForAccessToken(shopDomain: string, customerAccessToken: string): Promise<string | null> {
  return callPlatform(shopDomain, (port) => port.customerIdForAccessToken(customerAccessToken));
}
