// Test data for the Admin API tests: shops, keys, plans, contracts and the other read models,
// inserted through Prisma; plus the Admin surface (real kernel, real route tables, real
// idempotency hook) and a request helper. Every shop has a unique domain.
import { PUBLISHED_SCOPES } from "../../app/domain/keys/keys.server";
import { createSurface } from "../../app/http/kernel.server";
import { idempotencyHook } from "../../app/http/idempotency.server";
import { ADMIN_SURFACE } from "../../app/surfaces/config";
import { adminReadRoutes } from "../../app/surfaces/admin/reads";
import { adminWriteRoutes } from "../../app/surfaces/admin/writes";
import { adminSchedulePreviewRoutes } from "../../app/surfaces/schedule-preview";
import { uniq } from "./fixtures";
import type { HttpMethod } from "../../app/http/route";
import type { AnswerFor, ApiErrorBody, RoutePath } from "./typed-answers";

export const ALL_READ_SCOPES = PUBLISHED_SCOPES.filter((s) => s.startsWith("read:"));

// The rate-limit clock jumps ten minutes per request, so the bucket is always full in tests.
let clock = Date.now();
export const adminSurface = createSurface(ADMIN_SURFACE, [...adminReadRoutes, ...adminSchedulePreviewRoutes, ...adminWriteRoutes], {
  idempotency: idempotencyHook,
  now: () => (clock += 600_000),
});

type AdminTestRoute = (typeof adminReadRoutes)[number] | (typeof adminSchedulePreviewRoutes)[number] | (typeof adminWriteRoutes)[number];

/** One request to the Admin surface; the answer is typed from the route's response schema (typed-answers.ts). */
export async function api<M extends HttpMethod, P extends `/${string}`>(
  key: string,
  method: M,
  path: RoutePath<AdminTestRoute, M, P>,
  opts: { body?: unknown; rawBody?: string; idempotencyKey?: string | null; headers?: Record<string, string> } = {},
): Promise<AnswerFor<AdminTestRoute, M, P>> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, ...(opts.headers ?? {}) };
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && opts.idempotencyKey !== null) headers["Idempotency-Key"] = opts.idempotencyKey ?? `k-${uniq()}`;
  const res = await adminSurface.handle(new Request(`http://127.0.0.1${ADMIN_SURFACE.basePath}${path}`, { method, headers, body }));
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  const error = res.status >= 400 ? ((json as { error?: ApiErrorBody } | null)?.error ?? null) : null;
  return { status: res.status, headers: res.headers, text, json, error } as AnswerFor<AdminTestRoute, M, P>;
}

export const enc = encodeURIComponent;
