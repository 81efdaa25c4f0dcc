// Signed download URLs (docs/decisions/058-export-downloads.md): the signature is the authorization. It is an
// HMAC-SHA256 (SERVICE_SECRET) over the job id AND the expiry, so editing `expires` breaks it;
// a URL is valid one hour from issue and is minted again on every GET /exports/{id}.
// docs/decisions/058-export-downloads.md.
import { createHmac } from "node:crypto";
import { env } from "../../env.server";
import { digestsEqual } from "../keys/keys.server";

export const DOWNLOAD_URL_TTL_MS = 3600_000;

function signature(id: string, expires: number, secret: string): string {
  return createHmac("sha256", secret).update("export-download.v1\u0000").update(id).update("\u0000").update(String(expires)).digest("hex");
}

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

/** {base_url}/api/exports/<id>/download?expires=<unix seconds>&signature=<hex>. */
export function signDownloadUrl(id: string, now: Date, base = env().SHOPIFY_APP_URL, secret = env().SERVICE_SECRET): SignedUrl {
  const expires = Math.floor((now.getTime() + DOWNLOAD_URL_TTL_MS) / 1000);
  const url = new URL(`/api/exports/${encodeURIComponent(id)}/download`, base);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set("signature", signature(id, expires, secret));
  return { url: url.toString(), expiresAt: new Date(expires * 1000) };
}

export type SignatureCheck = "ok" | "malformed" | "bad_signature" | "expired";

/** Why a URL is refused (logged only; every refusal answers the same 404). Timing-safe. */
export function checkDownloadSignature(id: string, expires: string | null, sig: string | null, now: Date, secret = env().SERVICE_SECRET): SignatureCheck {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return "malformed";
  const exp = Number(expires);
  if (!digestsEqual(sig, signature(id, exp, secret))) return "bad_signature";
  if (exp * 1000 <= now.getTime()) return "expired";
  return "ok";
}
