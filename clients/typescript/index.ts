// The typed TypeScript client of the subscription service's APIs (docs/decisions/127-typed-client.md):
// openapi-fetch over the types openapi-typescript generates from /docs/openapi.json (schema.d.ts).
// Every path, parameter, body and answer is typed from the served document; a tiny layer adds the
// key, keyset paging and webhook verification.
import createClient from "openapi-fetch";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { paths } from "./schema";

export type { paths } from "./schema";

export interface ClientOptions {
  /** The app's address, e.g. https://subscriptions.example.com (the client adds /api/…). */
  baseUrl: string;
  /** A secret key (svc_sk_…) for the Admin API. */
  apiKey: string;
  fetch?: typeof fetch;
}

export function createServiceClient(o: ClientOptions) {
  return createClient<paths>({
    baseUrl: o.baseUrl.replace(/\/$/, ""),
    headers: { Authorization: `Bearer ${o.apiKey}` },
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
}

export type ServiceClient = ReturnType<typeof createServiceClient>;

/**
 * Every row of a keyset-paged list, page by page until next_cursor is null.
 * `fetchPage(cursor)` is one typed call, e.g. (cursor) => client.GET("/api/admin/v1/subscriptions", { params: { query: { cursor } } }).
 */
export async function* allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data?: { data: T[]; next_cursor: string | null }; error?: unknown }>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, error } = await fetchPage(cursor);
    if (!data) throw new Error(`list request failed: ${JSON.stringify(error)}`);
    yield* data.data;
    cursor = data.next_cursor ?? undefined;
  } while (cursor);
}

/**
 * Verifies X-Service-Signature (t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">) against the
 * raw body as received, timing-safe, within a freshness window (default five minutes).
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const item of header.split(",")) {
    const i = item.indexOf("=");
    if (i > 0) parts.set(item.slice(0, i).trim(), [...(parts.get(item.slice(0, i).trim()) ?? []), item.slice(i + 1).trim()]);
  }
  const t = Number(parts.get("t")?.[0]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest("hex"));
  return (parts.get("v1") ?? []).some((v) => {
    const got = Buffer.from(v);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
