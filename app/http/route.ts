// Declarative routes: a surface is a table of these. The kernel derives 404/405, validation,
// scope checks and the OpenAPI document (/docs) from the table, so a route never re-implements
// them (docs/decisions/045-route-entries.md).
//
// One endpoint, one greppable entry. Every endpoint is ONE `defineRoute({...})` object literal in
// its surface's table (app/surfaces/<surface>/*.ts) holding:
//   method, path     the literal path relative to the surface base ("/subscriptions/:contract_gid/pause"),
//                    never assembled by a template or a helper, so `grep -rn '"/exports/:id"' app`
//                    finds the endpoint (tests/unit/http/route-entries.test.ts checks it);
//   scopes           every one required, exact match;
//   params, query    zod schemas of the (decoded) path parameters and the query string;
//   body             zod schema of the JSON body: its output is what the handler receives, already
//                    typed (transforms welcome: an ISO timestamp can arrive as a Date), so the domain
//                    takes typed options and never re-parses the wire;
//   response         zod schema of the SUCCESS body (required). The handler's body is typed by it,
//                    /docs/openapi.json publishes it, and tests validate real answers against it
//                    (tests/integration/http/response-schemas.test.ts); use z.strictObject so an
//                    undeclared field fails that test;
//   successStatus    when it is not 200 (202 for an accepted job, 201 for a created resource);
//   summary, description, tags   the reference's words; `.describe()` and `.meta({ example })` on
//                    schemas become parameter descriptions and the example request at /docs;
//   handler          the one domain call: ctx in (typed from the schemas above), { body } out.
//
//   defineRoute({
//     method: "GET",
//     path: "/exports/:id",
//     scopes: ["read:exports"],
//     params: z.object({ id: z.string().min(1).max(64).meta({ example: "exp_01J..." }) }),
//     response: ExportJob,
//     summary: "One export job",
//     tags: ["Exports"],
//     handler: async (ctx) => ({ body: await getExport({ shopId: ctx.shop.id, id: ctx.params.id }) }),
//   }),
import type { z } from "zod";
import type { Scope } from "../domain/keys/keys.server";
import type { ErrorCode } from "../infra/errors";
import type { EncodedJson } from "./envelope.server";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteContext<P = Record<string, string>, Q = Record<string, string>, B = unknown> {
  request: Request;
  requestId: string;
  shop: { id: string; domain: string };
  key: { id: string; name: string; kind: "SECRET" | "PUBLISHABLE"; scopes: readonly string[] };
  /** Customer surface only: the verified session's customer gid. */
  customerId?: string;
  params: P;
  query: Q;
  body: B;
  /** The exact body text (empty string when none); the idempotency layer hashes the parsed body. */
  rawBody: string;
  /** Companion scopes (e.g. read:customers) that widen a response rather than gate it. */
  hasScope(scope: Scope): boolean;
}

export interface RouteResult<B = unknown> {
  status?: number;
  body: B;
  headers?: Record<string, string>;
}

type Schema = z.ZodType;
type Out<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

export interface RouteDef<
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
  RS extends Schema = Schema,
> {
  method: HttpMethod;
  /** A string literal relative to the surface base, e.g. "/subscriptions/:contract_gid". Params are decoded once. */
  path: string;
  /** Every one is required (exact match, no hierarchy). */
  scopes: readonly Scope[];
  params?: PS;
  query?: QS;
  body?: BS;
  /** The success body's schema: types the handler's body, published at /docs, checked by tests against real answers. */
  response: RS;
  /** Success status (default 200). */
  successStatus?: number;
  summary: string;
  description?: string;
  tags?: string[];
  /** Idempotency (docs/decisions/021-idempotency.md): the header is required and the idempotency layer wraps the handler. */
  requiresIdempotencyKey?: boolean;
  /** Customer surface: false for the one route that runs without X-Service-Session (POST /session). */
  session?: boolean;
  /** Codes the handler itself may answer besides the kernel's, for the reference. */
  errorCodes?: readonly ErrorCode[];
  handler(
    ctx: RouteContext<Out<PS, Record<string, string>>, Out<QS, Record<string, string>>, Out<BS, undefined>>,
  ): Promise<RouteResult<z.input<RS> | EncodedJson<z.input<RS>>>> | RouteResult<z.input<RS> | EncodedJson<z.input<RS>>>;
}

/** A route as its table holds it: erased for the kernel, its method, path and response schema kept for typed clients. */
export type TypedRoute<M extends HttpMethod, P extends string, RS extends Schema> = AnyRoute & { readonly method: M; readonly path: P; readonly response: RS };

/** Identity at runtime; exists so the handler's ctx and body are typed from the route's own schemas. */
export function defineRoute<
  M extends HttpMethod,
  P extends string,
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
  RS extends Schema = Schema,
>(def: RouteDef<PS, QS, BS, RS> & { method: M; path: P }): TypedRoute<M, P, RS> {
  return def as unknown as TypedRoute<M, P, RS>;
}

/**
 * A route with its types erased, as stored in a table: the same fields as RouteDef. The kernel
 * hands the handler values its own schemas produced, which is what defineRoute's cast relies on.
 */
export type AnyRoute = Omit<RouteDef<Schema, Schema, Schema>, "handler"> & {
  handler(ctx: RouteContext<unknown, unknown, unknown>): Promise<RouteResult> | RouteResult;
};

// ---- matching ---------------------------------------------------------------------------------

interface Compiled {
  route: AnyRoute;
  segments: Array<{ literal: string } | { param: string }>;
}

export interface RouteTable {
  routes: readonly AnyRoute[];
  compiled: Compiled[];
}

export function compileRoutes(routes: readonly AnyRoute[]): RouteTable {
  const seen = new Set<string>();
  const compiled = routes.map((route) => {
    const key = `${route.method} ${route.path.replace(/:[^/]+/g, ":")}`;
    if (seen.has(key)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    seen.add(key);
    const segments = route.path
      .split("/")
      .filter(Boolean)
      .map((s) => (s.startsWith(":") ? { param: s.slice(1) } : { literal: s }));
    return { route, segments };
  });
  return { routes, compiled };
}

export type MatchResult =
  | { kind: "found"; route: AnyRoute; params: Record<string, string> }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" }
  | { kind: "bad_encoding" };

/**
 * Match a path relative to the surface base. `path` is still percent-encoded (straight from the
 * URL), so each parameter segment is decoded exactly once, here: `gid%3A%2F%2F...` becomes a gid
 * and a literal `%2F` inside a gid never splits a segment.
 */
export function matchRoute(table: RouteTable, method: string, path: string): MatchResult {
  const parts = path === "" || path === "/" ? [] : path.replace(/^\//, "").split("/");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop(); // one trailing slash is tolerated
  if (parts.some((p) => p === "")) return { kind: "not_found" };
  const allowed: string[] = [];
  let hit: { route: AnyRoute; raw: Record<string, string>; literals: number } | undefined;
  for (const c of table.compiled) {
    if (c.segments.length !== parts.length) continue;
    const raw: Record<string, string> = {};
    let ok = true;
    let literals = 0;
    for (let i = 0; i < parts.length; i++) {
      const seg = c.segments[i];
      if ("literal" in seg) {
        if (seg.literal !== parts[i]) {
          ok = false;
          break;
        }
        literals++;
      } else raw[seg.param] = parts[i];
    }
    if (!ok) continue;
    // The most literal match wins: /exports/datasets beats /exports/:id whatever the table order.
    if (c.route.method === method || (method === "HEAD" && c.route.method === "GET")) {
      if (!hit || literals > hit.literals) hit = { route: c.route, raw, literals };
    } else if (!allowed.includes(c.route.method)) allowed.push(c.route.method);
  }
  if (hit) {
    const params: Record<string, string> = {};
    try {
      for (const [k, v] of Object.entries(hit.raw)) params[k] = decodeURIComponent(v);
    } catch {
      return { kind: "bad_encoding" };
    }
    return { kind: "found", route: hit.route, params };
  }
  if (allowed.length) return { kind: "method_not_allowed", allowed };
  return { kind: "not_found" };
}
