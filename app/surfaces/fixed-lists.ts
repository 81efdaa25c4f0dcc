// Lists that are short fixed sets (the event catalogue, the export datasets, a bundle's boxes)
// page like every other list (/docs#section/Conventions): `limit` default 50, at most 250, an
// over-large value clamped and never rejected, a malformed one 400 invalid_request; `cursor` the
// opaque next_cursor of the previous page (400 invalid_cursor when it does not verify). With the
// default limit every one of them fits one page. The position is the row's index in the set's
// fixed order, carried in the same signed cursor as a keyset;
// docs/decisions/120-list-limits-and-endpoint-paging.md.
import { z } from "zod";
import { ApiError } from "../infra/errors";
import { clampLimit } from "../domain/shared/paging.server";
import { decodeCursor, encodeCursor } from "../http/cursor.server";

const LIMIT_DOC = "Page size: default 50, maximum 250 (larger values are clamped)";

/** The query schema of such a list: `limit`, `cursor`, and whatever else the route names. */
export function fixedListQuery<T extends z.ZodRawShape>(shape?: T) {
  return z
    .object({
      limit: z.string().optional().describe(LIMIT_DOC),
      cursor: z.string().optional().describe("Opaque cursor from next_cursor"),
      ...(shape ?? ({} as T)),
    })
    .strict();
}

const EPOCH = new Date(0);

/** One page of `items` in the list envelope; `bind` names the list (and its filters) as for keyset lists. */
export function fixedListPage<T>(query: { limit?: string; cursor?: string }, items: readonly T[], bind: string): { data: T[]; next_cursor: string | null } {
  const limit = clampLimit(query.limit);
  let start = 0;
  if (query.cursor) {
    const at = decodeCursor(query.cursor, bind);
    start = Number(at.id) + 1;
    if (!Number.isSafeInteger(start) || start < 1)
      throw new ApiError("invalid_cursor", "cursor is malformed, was altered, or belongs to another list; restart from the first page");
  }
  const data = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return { data, next_cursor: more ? encodeCursor({ createdAt: EPOCH, id: String(start + limit - 1) }, bind) : null };
}
