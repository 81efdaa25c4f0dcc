// The API kernel: one function per surface turns a Request into a Response. Order of checks
// (/docs#section/Conventions; identical on every surface):
//   preflight (CORS surfaces) → credential (401s) → origin allowlist → customer session →
//   plan gate (403) → rate limit (429) → route (404 / 405) → scopes (403) → validation (400) →
//   Idempotency-Key → handler.
// Every failure, thrown anywhere below, leaves as the one error envelope with the request id.
import type { z } from "zod";
import { ApiError, type ErrorCode } from "../infra/errors";
import { log } from "../infra/log.server";
import { withActor, type Actor } from "../infra/actor.server";
import type { KeyKind, Scope } from "../domain/keys/keys.server";
import { planAllowsApi } from "../domain/shop/shops.server";
import { refreshPlanIfStale } from "../domain/shop/plan-freshness.server";
import { recordKeyUsage } from "../domain/keys/usage.server";
import { authenticateRequest, authenticateSession } from "./auth.server";
import { readBody } from "./body.server";
import { allowOrigin, isPreflight, preflightHeaders, shopAllowsOrigin } from "./cors.server";
import { errorEnvelope, errorResponse, jsonResponse } from "./envelope.server";
import { rateLimitHeaders, takeToken, type BucketPolicy } from "./rate-limit.server";
import { newRequestId } from "./request-id.server";
import { requestScope } from "./request-scope.server";
import { compileRoutes, matchRoute, type AnyRoute, type RouteContext, type RouteResult, type RouteTable } from "./route";
import type { RedisClient } from "../infra/redis.server";

export interface SurfaceConfig {
  name: "admin" | "storefront" | "customer";
  /** e.g. "/api/admin/v1" */
  basePath: string;
  /** Human name used in messages, e.g. "Admin API". */
  label: string;
  keyKind: KeyKind;
  bucket: BucketPolicy;
  cors: boolean;
  /** Customer API: X-Service-Session required except on routes with session: false. */
  customerSession: boolean;
  /** Customer API: Cache-Control: no-store on every response. */
  noStore: boolean;
  /**
   * Storefront API: a successful GET may be cached this long (public, keyed by Vary: Origin,
   * Authorization); every other answer is no-store. docs/decisions/065-storefront-api.md.
   */
  cacheMaxAgeSeconds?: number;
}

/**
 * Where idempotency plugs in (docs/decisions/021-idempotency.md; app/http/idempotency.server.ts). Called only
 * for routes with requiresIdempotencyKey, after every validation (so those never spend a key),
 * with a valid header value. It must call `run` at most once and may instead return a stored
 * result (adding `Idempotency-Replayed: true`). `run` throws ApiError on failure; use
 * errorResult() to turn a failure into a storable result so failures replay too.
 */
export type IdempotencyHook = (
  input: { ctx: RouteContext<unknown, unknown, unknown>; route: AnyRoute; idempotencyKey: string },
  run: () => Promise<RouteResult>,
) => Promise<RouteResult>;

export interface KernelOptions {
  idempotency?: IdempotencyHook;
  /** Rate-limit clock in ms (tests freeze it); default Redis server time. */
  now?: () => number;
  redis?: RedisClient;
  /** How long the rate limiter waits for Redis before its in-process fallback answers (default 500 ms). */
  rateLimitTimeoutMs?: number;
}

export interface Surface {
  config: SurfaceConfig;
  table: RouteTable;
  handle(request: Request): Promise<Response>;
}

const IDEMPOTENCY_KEY_RE = /^[\x20-\x7e]{1,255}$/;
// Matching control characters is the point here (a NUL reaches PostgreSQL as an error).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A failure as a storable handler result (the idempotency layer replays failures verbatim). */
export function errorResult(err: unknown, requestId: string): RouteResult {
  const e = toApiError(err, requestId);
  return { status: e.status, body: errorEnvelope(e.code, e.message, requestId), headers: e.headers };
}

function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  log.error("unhandled error in API request", { request_id: requestId, err: err instanceof Error ? err : new Error(String(err)) });
  return new ApiError("internal_error", "An internal error occurred. Quote the request id when contacting support.");
}

function validate<T>(schema: z.ZodType | undefined, value: unknown, where: string, code: ErrorCode = "invalid_request"): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data as T;
  const issue = r.error.issues[0];
  const field = [where, ...issue.path.map(String)].join(".");
  throw new ApiError(code, `${field}: ${issue.message}`);
}

export function createSurface(config: SurfaceConfig, routes: readonly AnyRoute[], options: KernelOptions = {}): Surface {
  const table = compileRoutes(routes);
  const methods = [...new Set(routes.map((r) => r.method))];

  // Every answer to an authenticated key is counted for the admin's API keys page (decision 060).
  async function handle(request: Request): Promise<Response> {
    const seen: { keyId?: string } = {};
    const response = await answer(request, seen);
    if (seen.keyId) void recordKeyUsage(seen.keyId, response.status, { client: options.redis });
    return response;
  }

  async function answer(request: Request, seen: { keyId?: string }): Promise<Response> {
    const requestId = newRequestId();
    const headers = new Headers({ "X-Service-Request-Id": requestId });
    if (config.noStore) headers.set("Cache-Control", "no-store");
    const origin = config.cors ? request.headers.get("origin") : null;
    if (config.cors) headers.set("Vary", config.cacheMaxAgeSeconds ? "Origin, Authorization" : "Origin");
    if (config.cacheMaxAgeSeconds) headers.set("Cache-Control", "no-store"); // until a GET succeeds

    try {
      if (config.cors && origin && isPreflight(request)) {
        preflightHeaders(headers, origin, methods);
        return new Response(null, { status: 204, headers });
      }
      // Until the shop is known, let the calling page read the (error) answer; decision 013.
      if (origin) allowOrigin(headers, origin);

      const url = new URL(request.url);
      let rel: string | null = null;
      if (url.pathname === config.basePath) rel = "";
      else if (url.pathname.startsWith(config.basePath + "/")) rel = url.pathname.slice(config.basePath.length);
      const method = request.method.toUpperCase();
      const match = rel === null ? ({ kind: "not_found" } as const) : matchRoute(table, method, rel);

      // 1. credential
      const principal = await authenticateRequest(request, config.keyKind, config.label);
      seen.keyId = principal.key.id;
      if (origin && !shopAllowsOrigin(origin, principal.shop)) {
        headers.delete("Access-Control-Allow-Origin");
        headers.delete("Access-Control-Expose-Headers");
        // The key is valid, but not from this page: invalid_credential, the code of a credential that
        // does not hold here (forbidden is the Customer API's other customer's contract; decision 122).
        throw new ApiError(
          "invalid_credential",
          `Origin ${origin} is not on this shop's allowlist: a publishable key is accepted only from the shop's own origins.`,
        );
      }
      // 2. customer session
      let customerId: string | undefined;
      if (config.customerSession && !(match.kind === "found" && match.route.session === false)) {
        customerId = authenticateSession(request, principal);
      }
      // 3. plan gate (above scope: /docs#section/Conventions). A row older than 60 s starts a
      // background re-read from Shopify; this request is answered from the row (decision 121).
      void refreshPlanIfStale(principal.shop, { client: options.redis });
      if (!planAllowsApi(principal.shop)) {
        throw new ApiError("plan_upgrade_required", "The Developer API requires the Pro plan (development stores: a paid platform plan plus Pro).");
      }
      // 4. rate limit: every authenticated request of the shop draws from its bucket
      const rl = await takeToken(config.bucket, principal.shop.id, { now: options.now?.(), client: options.redis, timeoutMs: options.rateLimitTimeoutMs });
      rateLimitHeaders(config.bucket, rl, headers);
      if (!rl.allowed) {
        throw new ApiError(
          "rate_limited",
          `Rate limit exceeded: ${config.bucket.perMinute} requests/minute, burst ${config.bucket.burst}, per shop. Retry after ${rl.retryAfterSeconds} s.`,
        );
      }
      // 5. route
      if (match.kind === "not_found") throw new ApiError("not_found", `No ${config.label} endpoint at ${method} ${url.pathname}.`);
      if (match.kind === "bad_encoding") throw new ApiError("invalid_request", "path: a path segment is not valid percent-encoding");
      if (match.kind === "method_not_allowed") {
        headers.set("Allow", match.allowed.join(", "));
        throw new ApiError("method_not_allowed", `${method} is not allowed on ${url.pathname}; allowed: ${match.allowed.join(", ")}.`);
      }
      const route = match.route;
      // Before any schema or query: no decoded path parameter may carry a control character
      // (PostgreSQL refuses a NUL byte outright; none is part of any id). Shapes: app/http/ids.ts.
      for (const [name, value] of Object.entries(match.params)) {
        if (CONTROL_CHARS.test(value)) throw new ApiError("invalid_request", `path.${name}: contains a control character`);
      }
      // 6. scopes: exact match, every one required
      const missing = route.scopes.filter((s) => !principal.key.scopes.includes(s));
      if (missing.length) {
        throw new ApiError("insufficient_scope", `This endpoint requires the scope ${missing.map((s) => `"${s}"`).join(" and ")}.`);
      }
      // 7. validation
      // A path id of the wrong shape names nothing: the same 404 as an unknown id, before any
      // query (app/http/ids.ts; docs/decisions/037-api-front-door.md).
      const params = validate<Record<string, string>>(route.params, match.params, "path", "not_found");
      const query = validate<Record<string, string>>(route.query, Object.fromEntries(url.searchParams), "query");
      const parsed = BODY_METHODS.has(method) ? await readBody(request) : { raw: "", json: undefined };
      const body = validate<unknown>(route.body, parsed.json, "body");

      const ctx: RouteContext<unknown, unknown, unknown> = {
        request,
        requestId,
        shop: { id: principal.shop.id, domain: principal.shop.domain },
        key: principal.key,
        customerId,
        params,
        query,
        body,
        rawBody: parsed.raw,
        hasScope: (s: Scope) => principal.key.scopes.includes(s),
      };
      // The handler runs in the request's scope: list cursors are bound to the caller's shop.
      // and as its actor: the key, or on the Customer API the session's customer (the audit trail's
      // who; docs/decisions/125-audit-log.md).
      const actor: Actor = customerId ? { type: "customer", id: customerId } : { type: "api_key", id: principal.key.id, name: principal.key.name };
      const run = async () => withActor(actor, () => requestScope.run({ shopId: principal.shop.id }, () => route.handler(ctx)), requestId);

      // 8. idempotency
      let result: RouteResult;
      if (route.requiresIdempotencyKey) {
        const idempotencyKey = request.headers.get("idempotency-key");
        if (idempotencyKey === null) throw new ApiError("invalid_request", "Idempotency-Key header is required on this endpoint.");
        if (!IDEMPOTENCY_KEY_RE.test(idempotencyKey)) {
          throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 printable ASCII characters.");
        }
        result = options.idempotency ? await options.idempotency({ ctx, route, idempotencyKey }, run) : await run();
      } else {
        result = await run();
      }

      // 9. respond
      for (const [k, v] of Object.entries(result.headers ?? {})) headers.set(k, v);
      if (config.cacheMaxAgeSeconds && route.method === "GET" && (result.status ?? 200) === 200) {
        headers.set("Cache-Control", `public, max-age=${config.cacheMaxAgeSeconds}`);
      }
      if (method === "HEAD") return new Response(null, { status: result.status ?? 200, headers });
      return jsonResponse(result.status ?? 200, result.body, headers);
    } catch (err) {
      const e = toApiError(err, requestId);
      for (const [k, v] of Object.entries(e.headers)) headers.set(k, v);
      return errorResponse(e.code, e.message, requestId, headers);
    }
  }

  return { config, table, handle };
}
