// CORS for the browser-facing surfaces (Storefront, Customer; decision 013).
// A preflight cannot carry Authorization, so it cannot name a shop: preflights are answered for
// any origin, and the allowlist is enforced on the real request, where the key names the shop.
// A real request whose Origin is not on the shop's list is refused (403 forbidden) and gets no
// Access-Control-Allow-Origin, so a page on a foreign origin can neither act nor read.
export const CORS_ALLOWED_HEADERS = "Authorization, X-Service-Session, Content-Type, Idempotency-Key";
export const CORS_EXPOSED_HEADERS = [
  "X-Service-Request-Id",
  "X-Service-RateLimit-Limit",
  "X-Service-RateLimit-Remaining",
  "X-Service-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "Idempotency-Replayed",
].join(", ");
const MAX_AGE_SECONDS = 600;

export function normaliseOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "").toLowerCase();
}

export function shopAllowsOrigin(origin: string, shop: { domain: string; storefrontOrigins: string[]; configuredOrigins: string[] }): boolean {
  const o = normaliseOrigin(origin);
  if (o === "null" || !/^https?:\/\//.test(o)) return false;
  if (o === `https://${shop.domain.toLowerCase()}`) return true;
  for (const allowed of shop.storefrontOrigins) if (normaliseOrigin(allowed) === o) return true;
  for (const allowed of shop.configuredOrigins) if (normaliseOrigin(allowed) === o) return true;
  return false;
}

/** Headers that let the calling page read this response. */
export function allowOrigin(headers: Headers, origin: string): void {
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS);
}

export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("origin") && request.headers.has("access-control-request-method");
}

export function preflightHeaders(headers: Headers, origin: string, methods: string[]): void {
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Allow-Methods", [...methods, "OPTIONS"].join(", "));
  headers.set("Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS);
  headers.set("Access-Control-Max-Age", String(MAX_AGE_SECONDS));
}
