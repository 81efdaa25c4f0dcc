// POST /shops/<shop>/api/<version>/graphql.json — the Storefront API, as a headless storefront
// calls it (Shopify's https://<shop>.myshopify.com/api/<version>/graphql.json) with the header
// X-Shopify-Storefront-Access-Token. Documents are executed against Shopify's Storefront schema
// (graphql-exec.ts). Simulated: `product(id | handle) { id handle title metafield(namespace, key)
// metafields(identifiers) }`, each metafield visible only under a definition whose storefront
// access is PUBLIC_READ (store/metafield-definitions.ts). Any other field answers NOT_SIMULATED.
import { randomBytes } from "node:crypto";
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import type { SimCore } from "./core";
import { executeRequest, prepareRequest } from "./graphql-exec";
import type { HttpAnswer } from "./http-answer";
import { storefrontSchema } from "./schema";
import type { Metafield, Product, ShopState } from "./state";
import { appClientIdOf, storefrontMetafield } from "./store/metafield-definitions";

const UNAUTHORIZED: HttpAnswer = {
  status: 401,
  body: { errors: [{ message: "", extensions: { code: "UNAUTHORIZED" } }] },
};

/** A storefront access token of the shop (what the Headless channel or storefrontAccessTokenCreate hands out). */
export function mintStorefrontAccessToken(shop: ShopState, now: Date): string {
  const token = randomBytes(16).toString("hex");
  (shop.storefrontAccessTokens ??= {})[token] = { createdAt: now.toISOString() };
  return token;
}

/** Shopify's default handle: the title, lower-cased, runs of other characters as one hyphen. */
const handleOf = (p: Product) =>
  p.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function gqlStorefrontMetafield(m: Metafield, namespace: string) {
  return { __typename: "Metafield", id: m.id, namespace, key: m.key, type: m.type, value: m.value, createdAt: m.updatedAt, updatedAt: m.updatedAt };
}

export function handleStorefrontApi(core: SimCore, domain: string, version: string, token: string | undefined, body: unknown): HttpAnswer {
  const shop = core.shop(domain);
  if (!shop) return { status: 404, body: { errors: [{ message: "Not Found" }] } };
  if (version !== SHOPIFY_API_VERSION) {
    return { status: 404, body: { errors: [{ message: `API version ${version} is not simulated: the simulator serves ${SHOPIFY_API_VERSION}` }] } };
  }
  const valid = !!token && !!shop.storefrontAccessTokens?.[token];
  core.record(shop, { api: "storefront", operation: "storefront", variables: {}, outcome: valid ? "ok" : "unauthorized" });
  if (!valid) return UNAUTHORIZED;

  const { query, variables, operationName } = (body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof query !== "string") return { status: 400, body: { errors: [{ message: "query is required", extensions: { code: "BAD_REQUEST" } }] } };
  const schema = storefrontSchema();
  const prepared = prepareRequest(schema, query, typeof operationName === "string" ? operationName : null);
  if (!prepared.ok) return { status: 200, body: { errors: prepared.errors } };
  const vars = variables && typeof variables === "object" && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {};
  const appClientId = appClientIdOf(core.config.apiKey);

  const gqlProduct = (p: Product) => {
    const read = (namespace: string | null | undefined, key: string) => {
      // Without a namespace the Storefront API reads the caller's own reserved one: a storefront has none.
      if (!namespace) return null;
      const m = storefrontMetafield(shop, "PRODUCT", p.id, namespace, key, appClientId);
      return m ? gqlStorefrontMetafield(m, namespace) : null;
    };
    return {
      __typename: "Product",
      id: p.id,
      handle: handleOf(p),
      title: p.title,
      metafield: (a: { namespace?: string | null; key: string }) => read(a.namespace, a.key),
      metafields: (a: { identifiers: Array<{ namespace?: string | null; key: string }> }) => a.identifiers.map((i) => read(i.namespace, i.key)),
    };
  };
  const root = {
    product: (a: { id?: string | null; handle?: string | null }) => {
      const found = a.id ? shop.products[a.id] : Object.values(shop.products).find((p) => a.handle && handleOf(p) === a.handle);
      return found ? gqlProduct(found) : null;
    },
  };
  return { status: 200, body: executeRequest(schema, prepared.request, root, {}, vars) };
}
