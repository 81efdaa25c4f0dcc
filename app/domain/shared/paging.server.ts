// Keyset paging shared by every Admin API list (/docs#section/Conventions; docs/decisions/012-cursors.md).
// The order is (created_at desc, id desc). The domain speaks in decoded keysets; turning a
// keyset into the opaque cursor string (and back, with invalid_cursor) is the HTTP kernel's job.
import { Prisma } from "@prisma/client";
import { ApiError } from "../../infra/errors";

export interface Keyset {
  createdAt: Date;
  id: string;
}

export interface PageRequest {
  /** Already clamped to 1..250 by the caller; clampLimit() is here for non-HTTP callers. */
  limit: number;
  /** The last row of the previous page, or null for the first page. */
  after: Keyset | null;
}

export interface PageResult<T> {
  data: T[];
  /** The keyset to continue after, or null when this was the last page. */
  next: Keyset | null;
}

/**
 * A page whose rows (of shape T) are already JSON: `items` holds the objects separated by commas,
 * without the brackets (GET /subscriptions; docs/decisions/091-subscription-list-from-binary-copy.md).
 */
export interface EncodedPage<T = unknown> {
  items: Buffer;
  next: Keyset | null;
  readonly item?: T;
}

/** The rows of an encoded page as values (a page of the admin, a test). */
export function decodedPage<T>(page: EncodedPage<T>): PageResult<T> {
  return { data: JSON.parse(`[${page.items.toString("utf8")}]`) as T[], next: page.next };
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;

/**
 * default 50, max 250; an over-large value is clamped, never rejected. A string must be decimal
 * digits only: Number() would also take "0x10", "1e2", "+5" and " 5" (docs/decisions/012-cursors.md).
 */
export function clampLimit(raw: number | string | null | undefined): number {
  if (raw === null || raw === undefined || raw === "") return DEFAULT_LIMIT;
  if (typeof raw === "string" && !/^[0-9]+$/.test(raw)) {
    throw new ApiError("invalid_request", `limit must be a positive integer in decimal digits (got "${raw.slice(0, 40)}")`);
  }
  const n = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < 1) {
    throw new ApiError("invalid_request", `limit must be a positive integer (got "${String(raw)}")`);
  }
  return Math.min(n, MAX_LIMIT);
}

/** Prisma `where` fragment for "strictly after this keyset" in (created_at desc, id desc) order. */
export function afterWhere(after: Keyset | null): { OR?: Array<Record<string, unknown>> } {
  if (!after) return {};
  return { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] };
}

export const KEYSET_ORDER = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** SQL fragment for raw queries: `(created_at, id) < (after)` on the given table alias. */
export function afterSql(after: Keyset | null, alias = ""): Prisma.Sql {
  if (!after) return Prisma.empty;
  const p = alias ? `${alias}.` : "";
  return Prisma.sql` AND (${Prisma.raw(`${p}created_at`)}, ${Prisma.raw(`${p}id`)}) < (${after.createdAt}, ${after.id})`;
}

/** Cut a `limit + 1` fetch into a page and its continuation keyset. */
export function toPage<R extends { createdAt: Date; id: string }, T>(rows: R[], limit: number, map: (r: R) => T): PageResult<T> {
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  const last = slice[slice.length - 1];
  return { data: slice.map(map), next: more && last ? { createdAt: last.createdAt, id: last.id } : null };
}
