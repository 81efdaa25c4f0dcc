// Query-parameter parsing shared by the Admin API reads and the in-app dashboards. Every rule
// here is a 400 invalid_request naming the offending value: an unknown enum value or an
// unparseable timestamp is never ignored (/docs#section/Decisions-on-open-points).
import { ApiError } from "../../infra/errors";

export type Query = URLSearchParams | Record<string, string | undefined>;

export function getParam(q: Query, name: string): string | undefined {
  const v = q instanceof URLSearchParams ? (q.get(name) ?? undefined) : q[name];
  return v === undefined ? undefined : v;
}

/** One value of a closed set, matched case-insensitively; returns the canonical spelling. */
export function enumParam<T extends string>(q: Query, name: string, values: readonly T[]): T | undefined;
export function enumParam<T extends string>(q: Query, name: string, values: readonly T[], fallback: T): T;
export function enumParam<T extends string>(q: Query, name: string, values: readonly T[], fallback?: T): T | undefined {
  const raw = getParam(q, name);
  if (raw === undefined || raw === "") return fallback;
  const hit = values.find((v) => v.toLowerCase() === raw.toLowerCase());
  if (!hit) {
    throw new ApiError("invalid_request", `Unknown ${name} "${raw}": expected one of ${values.join(", ")}`);
  }
  return hit;
}

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

export function timestampParam(q: Query, name: string): Date | undefined {
  const raw = getParam(q, name);
  if (raw === undefined || raw === "") return undefined;
  const d = parseIsoTimestamp(raw);
  if (!d) throw new ApiError("invalid_request", `${name} "${raw}" is not an ISO 8601 timestamp (e.g. 2025-01-31T00:00:00Z)`);
  return d;
}

/** A platform gid of the given type, e.g. gid://shopify/Customer/123. */
export function gidParam(q: Query, name: string, type: string): string | undefined {
  const raw = getParam(q, name);
  if (raw === undefined || raw === "") return undefined;
  if (!isGid(raw, type)) throw new ApiError("invalid_request", `${name} "${raw}" is not a ${type} id (gid://shopify/${type}/<number>)`);
  return raw;
}

export function isGid(value: unknown, type: string): value is string {
  return typeof value === "string" && new RegExp(`^gid://shopify/${type}/\\d+$`).test(value);
}
