// POST /shops/<shop>/admin/api/<version>/graphql.json — the Admin GraphQL API. Checks the access
// token and the API version, applies injected failures, then executes the document against
// Shopify's Admin schema (graphql-exec.ts) with the resolvers of admin-resolvers.ts.
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import type { SimCore } from "./core";
import { MUTATION, QUERY, type AdminContext, type RootResolver } from "./admin-resolvers";
import { executeRequest, prepareRequest, refusedPayload, type PreparedRequest } from "./graphql-exec";
import { adminSchema } from "./schema";
import { actualCost, MAX_QUERY_COST, requestedCost } from "./query-cost";
import type { Failure, ShopState, UserError } from "./state";
import type { HttpAnswer } from "./http-answer";

const RATE_LIMITS_DOC = "https://shopify.dev/api/usage/rate-limits";

/** Shopify's refusal of a document whose requested cost exceeds the single-query maximum. */
const maxCostExceeded = (cost: number) => ({
  message:
    `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\n` +
    "See https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\n" +
    "cost of a query is calculated.\n\n" +
    "To query larger amounts of data with fewer limits, bulk operations should be used instead.\n" +
    "See https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n",
  extensions: { code: "MAX_COST_EXCEEDED", cost, maxCost: MAX_QUERY_COST, documentation: RATE_LIMITS_DOC },
});

const THROTTLED = { message: "Throttled", extensions: { code: "THROTTLED", documentation: RATE_LIMITS_DOC } };

/** Takes (and consumes) the next injected failure for `operation`, if any. */
export function takeFailure(shop: ShopState, operation: string): Failure | undefined {
  const i = shop.failures.findIndex((f) => f.operation === operation);
  if (i < 0) return undefined;
  const failure = shop.failures[i];
  if ("throttled" in failure && failure.throttled > 1) {
    shop.failures[i] = { ...failure, throttled: failure.throttled - 1 };
    return failure;
  }
  shop.failures.splice(i, 1);
  return failure;
}

const INVALID_TOKEN = { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" };
const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The root value for one request: each simulated root field's resolver, wrapped so that every
 * call is logged, and an injected `userErrors` failure answers in place of the resolver.
 */
function rootValueFor(core: SimCore, shop: ShopState, request: PreparedRequest, variables: Record<string, unknown>, injected: Map<string, UserError[]>) {
  const resolvers = request.operation.operation === "mutation" ? MUTATION : QUERY;
  const root: Record<string, unknown> = {};
  for (const [name, resolve] of Object.entries(resolvers) as [string, RootResolver][]) {
    root[name] = (args: Record<string, unknown>, ctx: AdminContext) => {
      const userErrors = injected.get(name);
      if (userErrors) {
        core.record(shop, { api: "admin", operation: name, variables, outcome: "user_errors" });
        return refusedPayload(request.rootType, name, userErrors);
      }
      const value = resolve(args, ctx);
      const refused = Array.isArray(asRecord(value).userErrors) && (asRecord(value).userErrors as unknown[]).length > 0;
      core.record(shop, { api: "admin", operation: name, variables, outcome: refused ? "user_errors" : "ok" });
      return value;
    };
  }
  return root;
}

export function handleAdminGraphql(core: SimCore, shopDomain: string, version: string, accessToken: string | undefined, body: unknown): HttpAnswer {
  const shop = core.shop(shopDomain);
  if (!shop || !shop.installation || !accessToken || accessToken !== shop.installation.accessToken) {
    core.record(shop, { api: "admin", operation: "(auth)", variables: {}, outcome: "unauthorized" });
    return { status: 401, body: INVALID_TOKEN };
  }
  // Only the version whose schema is vendored is simulated: a caller on another version would
  // be answered by Shopify with another schema (docs/decisions/031-shopify-api-version.md).
  if (version !== SHOPIFY_API_VERSION) {
    return { status: 404, body: { errors: `API version ${version} is not simulated: the simulator serves ${SHOPIFY_API_VERSION}` } };
  }
  const headers = { "X-Shopify-API-Version": SHOPIFY_API_VERSION };
  const { query, variables: rawVariables, operationName } = asRecord(body);
  if (typeof query !== "string") return { status: 400, body: { errors: { query: "Required parameter missing or invalid" } }, headers };
  const variables = asRecord(rawVariables);

  const schema = adminSchema();
  const prepared = prepareRequest(schema, query, typeof operationName === "string" ? operationName : null);
  if (!prepared.ok) {
    core.record(shop, { api: "admin", operation: "(invalid document)", variables, outcome: "graphql_errors" });
    return { status: 200, body: { errors: prepared.errors }, headers };
  }
  const request = prepared.request;

  // Shopify's calculated cost, charged to this shop's bucket for this app before anything runs.
  const bucketKey = `${shop.domain}|${core.config.apiKey}`;
  const requested = requestedCost(schema, request, variables);
  if (requested > MAX_QUERY_COST) {
    core.record(shop, { api: "admin", operation: request.rootFields.join(",") || "(none)", variables, outcome: "graphql_errors" });
    const throttleStatus = core.rateLimits.status(bucketKey, shop);
    return {
      status: 200,
      headers,
      body: { errors: [maxCostExceeded(requested)], extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus } } },
    };
  }

  // Injected failures apply to the whole request, as a real outage or throttle would.
  let delayMs = 0;
  let webhooksLost = false;
  const injected = new Map<string, UserError[]>();
  for (const operation of request.rootFields) {
    const failure = takeFailure(shop, operation);
    if (!failure) continue;
    core.changed();
    if ("delayMs" in failure) {
      delayMs = Math.max(delayMs, failure.delayMs);
    } else if ("webhooksLost" in failure) {
      webhooksLost = true;
    } else if ("status" in failure) {
      core.record(shop, { api: "admin", operation, variables, outcome: "http_error" });
      return { status: failure.status, body: { errors: "Service Unavailable (simulated)" }, headers };
    } else if ("throttled" in failure) {
      // An injected throttle (a reduced limit, docs/decisions/095): refused like an empty bucket.
      core.record(shop, { api: "admin", operation, variables, outcome: "throttled" });
      const throttleStatus = core.rateLimits.status(bucketKey, shop);
      return {
        status: 200,
        headers,
        body: { errors: [THROTTLED], extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus } } },
      };
    } else {
      injected.set(operation, failure.userErrors);
    }
  }

  if (!core.rateLimits.take(bucketKey, shop, requested)) {
    core.record(shop, { api: "admin", operation: request.rootFields.join(",") || "(none)", variables, outcome: "throttled" });
    const throttleStatus = core.rateLimits.status(bucketKey, shop);
    return {
      status: 200,
      headers,
      body: { errors: [THROTTLED], extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus } } },
      delayMs,
    };
  }

  const ctx: AdminContext = { core, shop };
  const execute = () => executeRequest(schema, request, rootValueFor(core, shop, request, variables, injected), ctx, variables);
  const result = webhooksLost ? core.withWebhooksLost(execute) : execute();
  if (result.errors && result.data === undefined) {
    core.record(shop, { api: "admin", operation: request.rootFields.join(",") || "(none)", variables, outcome: "graphql_errors" });
  }
  // Refunded what the answer did not use (Shopify charges the actual cost in the end).
  const actual = result.data === undefined ? 0 : Math.min(requested, actualCost(schema, request, variables, result.data));
  core.rateLimits.refund(bucketKey, shop, requested - actual);
  const cost = { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: core.rateLimits.status(bucketKey, shop) };
  return { status: 200, body: { ...result, extensions: { cost } }, headers, delayMs };
}
