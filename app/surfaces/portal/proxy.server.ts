// Who is asking through Shopify's app proxy, and whether a form post is the portal's own
// (docs/decisions/140-hosted-portal-app-proxy.md, docs/decisions/141-hosted-portal-forms.md).
import { createHmac, timingSafeEqual } from "node:crypto";
import { InvalidHmacError, LogSeverity, shopifyApi } from "@shopify/shopify-api";
import { env } from "../../env.server";
import { LIBRARY_API_VERSION } from "../../platform/api-version";

export interface ProxyIdentity {
  shopDomain: string;
  /** gid://shopify/Customer/<n>, or null when the shopper is not logged in to the store. */
  customerId: string | null;
  /** Where the portal lives on the shop's domain (Shopify's path_prefix, e.g. /apps/subscriptions). */
  prefix: string;
}

let library: ReturnType<typeof shopifyApi> | undefined;

/**
 * The Shopify library's signature check for app proxy queries: the same `validateHmac` its
 * `authenticate.public.appProxy` runs first. That call then loads and decrypts the shop's offline
 * session for an Admin client the portal never uses, one query per page for nothing
 * (docs/decisions/140-hosted-portal-app-proxy.md has the measurements), so the portal calls the
 * check itself. The instance only signs and checks: it holds no session storage. It relies on
 * the node adapter that app/shopify.server.ts loads through the Remix library; importing
 * `@shopify/shopify-api/adapters/node` here as well broke the inbound webhooks' validation (400).
 */
function validateHmac() {
  const config = env();
  library ??= shopifyApi({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecretKey: config.SHOPIFY_API_SECRET,
    apiVersion: LIBRARY_API_VERSION,
    hostName: new URL(config.SHOPIFY_APP_URL).host,
    isEmbeddedApp: true,
    logger: { level: LogSeverity.Warning },
  });
  return library.utils.validateHmac;
}

/**
 * Verifies the signed query with the Shopify library (signature and a timestamp within its
 * 90 seconds) and reads the identity from it: every parameter used here is covered by the
 * signature. Null when the request is not Shopify's.
 */
export async function verifyProxyRequest(request: Request): Promise<ProxyIdentity | null> {
  const q = new URL(request.url).searchParams;
  try {
    if (!(await validateHmac()(Object.fromEntries(q.entries()), { signator: "appProxy" }))) return null;
  } catch (err) {
    // A missing signature or a timestamp outside the window.
    if (err instanceof InvalidHmacError) return null;
    throw err;
  }
  const shopDomain = q.get("shop") ?? "";
  const customer = q.get("logged_in_customer_id") ?? "";
  const prefix = q.get("path_prefix") ?? "";
  if (!/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shopDomain) || !/^\/[a-z0-9/_-]+$/i.test(prefix)) return null;
  if (customer !== "" && !/^[0-9]{1,20}$/.test(customer)) return null;
  return { shopDomain, customerId: customer ? `gid://shopify/Customer/${customer}` : null, prefix: prefix.replace(/\/$/, "") };
}

/** A form token lives this long: a page left open for an afternoon still posts. */
export const FORM_TOKEN_TTL_SECONDS = 4 * 3600;

function formKey(): Buffer {
  return createHmac("sha256", env().SHOPIFY_API_SECRET).update("hosted-portal-form-token/v1").digest();
}

const tokenMac = (shopDomain: string, customerId: string, expires: number) =>
  createHmac("sha256", formKey()).update(`${shopDomain}|${customerId}|${expires}`).digest("base64url");

/** The hidden field every portal form carries: bound to the shop and the signed-in customer, with an expiry. */
export function formToken(id: ProxyIdentity & { customerId: string }, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + FORM_TOKEN_TTL_SECONDS;
  return `${expires}.${tokenMac(id.shopDomain, id.customerId, expires)}`;
}

/** True when the token was minted for this shop and customer and has not expired (timing-safe). */
export function checkFormToken(id: ProxyIdentity & { customerId: string }, token: string, now = Date.now()): boolean {
  const m = /^([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires < Math.floor(now / 1000)) return false;
  const want = Buffer.from(tokenMac(id.shopDomain, id.customerId, expires));
  const got = Buffer.from(m[2]);
  return want.length === got.length && timingSafeEqual(want, got);
}
