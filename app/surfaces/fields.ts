// Zod fields the surfaces share for wire values (query strings, JSON bodies): the one place a
// wire string becomes a typed value, so the domain receives Dates and checked ids
// (docs/decisions/045-route-entries.md).
import { z } from "zod";

const ISO_TS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?))?$/;

/**
 * Strict ISO 8601 timestamp: YYYY-MM-DDTHH:MM[:SS[.fff]] followed by Z or an offset, or a bare
 * date (midnight UTC). A time without a zone is ambiguous and refused; so is an impossible
 * calendar date (2025-02-30). Returns null when the text is not such a timestamp.
 */
export function parseIsoTimestamp(text: string): Date | null {
  const m = ISO_TS.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, , zone] = m;
  if (h !== undefined && zone === undefined) return null;
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  if (month < 1 || month > 12 || day < 1) return null;
  const dim = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > dim) return null;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || (s !== undefined && Number(s) > 59))) return null;
  const normalised = h === undefined ? `${y}-${mo}-${d}T00:00:00Z` : text.trim().replace(" ", "T");
  const t = Date.parse(normalised);
  return Number.isNaN(t) ? null : new Date(t);
}

/** A string that is a platform gid of the given type. */
export function isGid(value: unknown, type: string): value is string {
  return typeof value === "string" && new RegExp(`^gid://shopify/${type}/\\d+$`).test(value);
}

/** An ISO 8601 timestamp with `Z` or an offset (a bare date is midnight UTC), parsed to a Date. */
export const isoTimestamp = () =>
  z
    .string()
    .meta({ format: "date-time", example: "2030-03-01T00:00:00Z" })
    .transform((text, ctx) => {
      const d = parseIsoTimestamp(text);
      if (d) return d;
      ctx.issues.push({ code: "custom", input: text, message: `${JSON.stringify(text)} is not an ISO 8601 timestamp (e.g. 2030-03-01T00:00:00Z)` });
      return z.NEVER;
    });

/** A Shopify global id of one type, e.g. gid("ProductVariant") for gid://shopify/ProductVariant/<number>. */
export const gid = (type: string) =>
  z
    .string()
    .refine((v) => isGid(v, type), { message: `not a gid://shopify/${type}/<number>` })
    .meta({ description: `gid://shopify/${type}/<number>`, example: `gid://shopify/${type}/1001` });
