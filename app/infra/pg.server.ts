// The hot-path SQL pool: plain `pg`, for the two reads every API request pays for (the key
// lookup, and keyset pages of the lists). Everything else goes through Prisma. Measured in
// bench/kernel.ts and bench/admin.ts, Prisma's raw-query path through the driver adapter adds
// about 0.4 ms (key lookup) to 1.2 ms (a 250-row page) per query: most of both latency budgets.
// See docs/decisions/007-hot-path-sql.md.
import pg from "pg";
import { env } from "../env.server";
import { log } from "./log.server";

const TIMESTAMP = 1114; // timestamp without time zone: how Prisma stores DateTime

// Prisma writes UTC wall-clock values; pg's default parser would read them in the process's
// local zone (on a non-UTC server, key expiries would move by hours). Per pool, not global,
// so Prisma's own adapter is untouched.
export function parseUtcTimestamp(value: string): Date {
  const d = new Date(value.replace(" ", "T") + "Z");
  if (!Number.isNaN(d.getTime())) return d;
  // What the ISO parser refuses: a year past 9999 ("12345-06-07 08:09:10") and BC dates ("0044-03-15
  // 10:00:00 BC", the year before 1 AD being year 0). `infinity` stays an invalid Date.
  const m = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?( BC)?$/.exec(value);
  if (!m) return d;
  const parsed = new Date(Date.UTC(2000, 0, 1, Number(m[4]), Number(m[5]), Number(m[6]), Number((m[7] ?? "").padEnd(3, "0").slice(0, 3))));
  parsed.setUTCFullYear(m[8] ? 1 - Number(m[1]) : Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return parsed;
}
const parseUtc = parseUtcTimestamp;

/**
 * The ISO 8601 string `Date#toISOString` would give for a timestamp as PostgreSQL prints it
 * ("2026-11-21 15:10:05.12": trailing zeros of the fraction dropped, none when whole), built
 * from the text alone. The lists' rows carry three timestamps each, and parsing each into a Date
 * only to print it again was the largest single cost of encoding a page
 * (docs/decisions/069-admin-list-encode-attempts.md). Anything not of that shape (a year past
 * 9999, BC) takes the Date path.
 */
export function isoFromPgTimestamp(text: string): string {
  const n = text.length;
  if (n < 19 || n > 26 || text.charCodeAt(10) !== 32 || (n > 19 && text.charCodeAt(19) !== 46) || text.endsWith(" BC")) return parseUtc(text).toISOString();
  const millis = n === 19 ? "000" : n >= 23 ? text.slice(20, 23) : (text.slice(20) + "00").slice(0, 3);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millis}Z`;
}

/** Type parsers that read `timestamp` text with `parse` and every other type as pg does. */
export function timestampTypes<T>(parse: (text: string) => T) {
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === TIMESTAMP && format !== "binary" ? parse : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
}

/** Per-query parsers: timestamps as ISO strings (isoFromPgTimestamp). */
const ISO_TIMESTAMPS = timestampTypes(isoFromPgTimestamp);

let pool: pg.Pool | undefined;

export function hotPool(): pg.Pool {
  if (pool) return pool;
  pool = new pg.Pool({
    connectionString: env().DATABASE_URL,
    max: 10,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    types: timestampTypes(parseUtc),
  });
  // An idle client whose backend dies (database restart, failover, pg_terminate_backend) emits
  // `error` on the pool; unheard, that event kills the process. The pool has already dropped the
  // client: the next query opens a fresh connection. A query in flight fails on its own (the
  // request it serves answers 500) and its client is discarded on release.
  pool.on("error", (err) => log.warn("hot pool: idle database connection lost; it will be replaced", { err }));
  return pool;
}

/**
 * A Date parameter as its UTC wall clock, in an array too. pg would send it in the process's
 * local zone with an offset, which a `timestamp` column ignores: on a server not set to UTC every
 * keyset cursor, date filter and export range would move by hours (Prisma's own driver sends UTC).
 */
export const utcParam = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.map(utcParam) : v);

/**
 * Runs a Prisma.sql fragment (its `$n` text and values) on the hot pool: as a named prepared
 * statement when `name` is given; with `isoTimestamps`, timestamp columns come back as ISO
 * strings instead of Dates. Dates go as UTC (`utcParam`), like every timestamp Prisma writes.
 */
export async function hotQuery<T extends pg.QueryResultRow>(
  sql: { text: string; values: unknown[] },
  opts: { name?: string; isoTimestamps?: boolean } = {},
): Promise<T[]> {
  const { rows } = await hotPool().query<T>({
    text: sql.text,
    values: sql.values.map(utcParam),
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.isoTimestamps ? { types: ISO_TIMESTAMPS } : {}),
  });
  return rows;
}
