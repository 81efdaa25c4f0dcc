// The delivery signature (/docs "Verifying webhook signatures"): X-Service-Signature:
// t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<raw body>" keyed with the endpoint's secret>.
import { createHmac } from "node:crypto";

export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const v1 = createHmac("sha256", secret).update(`${unixSeconds}.`).update(rawBody).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}
