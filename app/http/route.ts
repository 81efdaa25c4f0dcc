// Declarative routes: a surface is a table of these. The kernel derives 404/405, validation,
// scope checks and the OpenAPI document from the table, so a route never re-implements them.
import type { z } from "zod";
import type { Scope } from "../domain/keys.server";
import type { ErrorCode } from "../errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteContext<P = Record<string, string>, Q = Record<string, string>, B = unknown> {
  request: Request;
  requestId: string;
  shop: { id: string; domain: string };
  key: { id: string; kind: "SECRET" | "PUBLISHABLE"; scopes: readonly string[] };
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

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Schema = z.ZodType;
type Out<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

export interface RouteDef<PS extends Schema | undefined = undefined, QS extends Schema | undefined = undefined, BS extends Schema | undefined = undefined> {
  method: HttpMethod;
  /** Relative to the surface base, e.g. "/subscriptions/:contract_gid". Params are decoded once. */
  path: string;
  /** Every one is required (exact match, no hierarchy). */
  scopes: readonly Scope[];
  params?: PS;
  query?: QS;
  body?: BS;
  summary: string;
  description?: string;
  tags?: string[];
  /** Spec 1 Idempotency: the header is required and the idempotency layer wraps the handler. */
  requiresIdempotencyKey?: boolean;
  /** Customer surface: false for the one route that runs without X-Service-Session (POST /session). */
  session?: boolean;
  /** Success body schema, for the reference only (never enforced at runtime). */
  responses?: Schema;
  /** Codes the handler itself may answer besides the kernel's, for the reference. */
  errorCodes?: readonly ErrorCode[];
  /** Success status for the reference (default 200). */
  successStatus?: number;
  handler(ctx: RouteContext<Out<PS, Record<string, string>>, Out<QS, Record<string, string>>, Out<BS, undefined>>): Promise<RouteResult> | RouteResult;
}

/** Identity at runtime; exists so the handler's ctx is typed from the route's own schemas. */
export function defineRoute<PS extends Schema | undefined = undefined, QS extends Schema | undefined = undefined, BS extends Schema | undefined = undefined>(
  def: RouteDef<PS, QS, BS>,
): AnyRoute {
  return def as unknown as AnyRoute;
}

/** A route with its types erased, as stored in a table: the same fields as RouteDef. */
export type AnyRoute = Omit<RouteDef<Schema, Schema, Schema>, "handler"> & {
  handler(ctx: RouteContext<any, any, any>): Promise<RouteResult> | RouteResult; // eslint-disable-line @typescript-eslint/no-explicit-any
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
