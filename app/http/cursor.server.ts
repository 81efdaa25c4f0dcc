// Opaque, tamper-evident list cursors (decision 012). A cursor is the keyset of the last row
// served, base64url JSON, plus an HMAC-SHA256 (SERVICE_SECRET) over it and over a `bind` string
// naming the list and its filters, so a cursor can be neither forged, edited, nor replayed
// against another list. The MAC also covers the caller's shop (set by the kernel, request scope),
// so a cursor minted for one shop never continues another shop's list, whatever the list.
// Anything that does not verify is 400 invalid_cursor, never a restart.
import { createHmac } from "node:crypto";
import { env } from "../env.server";
import { ApiError } from "../infra/errors";
import { digestsEqual } from "../domain/keys/keys.server";
import { clampLimit, toPage, type EncodedPage, type Keyset, type PageResult } from "../domain/shared/paging.server";
import { EncodedJson } from "./envelope.server";
import { requestScope } from "./request-scope.server";

const MAC_BYTES = 16;

function mac(payload: string, bind: string, secret: string): string {
  // Outside an API request (tests, the CLI) there is no shop: such a cursor verifies nowhere else.
  const shop = requestScope.getStore()?.shopId ?? "";
  return createHmac("sha256", secret)
    .update("cursor.v2.")
    .update(shop)
    .update("\u0000")
    .update(bind)
    .update("\u0000")
    .update(payload)
    .digest()
    .subarray(0, MAC_BYTES)
    .toString("base64url");
}

export function encodeCursor(keyset: Keyset, bind = "", secret = env().SERVICE_SECRET): string {
  const payload = Buffer.from(JSON.stringify([keyset.createdAt.getTime(), keyset.id])).toString("base64url");
  return `${payload}.${mac(payload, bind, secret)}`;
}

const invalid = () => new ApiError("invalid_cursor", "cursor is malformed, was altered, or belongs to another list; restart from the first page");

export function decodeCursor(cursor: string, bind = "", secret = env().SERVICE_SECRET): Keyset {
  if (cursor.length > 512) throw invalid();
  const dot = cursor.indexOf(".");
  if (dot <= 0) throw invalid();
  const payload = cursor.slice(0, dot);
  if (!digestsEqual(cursor.slice(dot + 1), mac(payload, bind, secret))) throw invalid();
  try {
    const v: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && typeof v[1] === "string") {
      return { createdAt: new Date(v[0] as number), id: v[1] };
    }
  } catch {
    // fall through
  }
  throw invalid();
}

/** Query-string inputs of every list: `limit` (default 50, clamped to 250) and `cursor`. */
export interface ListQuery {
  limit?: string | number | null;
  cursor?: string | null;
}

/**
 * One page of a keyset list in the API's envelope. `fetch` receives the decoded position (null on
 * the first page) and `take` = limit + 1 and returns rows in (created_at desc, id desc) order;
 * use afterWhere()/KEYSET_ORDER (Prisma) or afterSql() (raw SQL) from app/domain/shared/paging.server.ts.
 * `bind` should name the list and every filter value so a cursor only continues the list it came from.
 */
export async function keysetPage<R extends Keyset, T>(
  query: ListQuery,
  fetch: (page: { after: Keyset | null; take: number; limit: number }) => Promise<R[]>,
  map: (row: R) => T,
  bind = "",
): Promise<{ data: T[]; next_cursor: string | null }> {
  const limit = clampLimit(query.limit ?? undefined);
  const after = query.cursor ? decodeCursor(query.cursor, bind) : null;
  const rows = await fetch({ after, take: limit + 1, limit });
  return toEnvelope(toPage(rows, limit, map), bind);
}

/** Turn a domain PageResult (app/domain/shared/paging.server.ts) into `{ data, next_cursor }`. */
export function toEnvelope<T>(page: PageResult<T>, bind = ""): { data: T[]; next_cursor: string | null } {
  return { data: page.data, next_cursor: page.next ? encodeCursor(page.next, bind) : null };
}

const DATA_OPEN = Buffer.from('{"data":[');

/** The same envelope around a page whose objects are already JSON (docs/decisions/091-subscription-list-from-binary-copy.md). */
export function toEncodedEnvelope<T>(page: EncodedPage<T>, bind = ""): EncodedJson<{ data: T[]; next_cursor: string | null }> {
  const cursor = page.next ? encodeCursor(page.next, bind) : null;
  return new EncodedJson(Buffer.concat([DATA_OPEN, page.items, Buffer.from(`],"next_cursor":${JSON.stringify(cursor)}}`)]));
}
