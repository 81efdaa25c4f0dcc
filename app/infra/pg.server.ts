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

/**
 * True when a statement failed because its connection was lost (the backend terminated by a
 * failover, a restart, a pooler or pg_terminate_backend), not because of the statement itself.
 */
export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  // 57P01-57P03: admin, crash and startup shutdowns; class 08: connection exceptions.
  if (typeof e.code === "string" && (/^57P0[123]$/.test(e.code) || e.code.startsWith("08") || ["ECONNRESET", "EPIPE"].includes(e.code))) return true;
  if (typeof e.message === "string" && /^Connection terminated/.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err && isConnectionLost(e.cause);
}

/**
 * Runs a read, and once more on a connection of its own (`again`) when the first one was lost: a
 * read has no effect to repeat, so a failover costs the caller a few milliseconds instead of an
 * error (docs/decisions/093). Not again from the pool: when a failover ends every backend, the
 * pool's other idle connections are dead too until each reports it. A write is never retried
 * this way (its outcome is unknown).
 */
export async function readWithRetry<T>(read: () => Promise<T>, again: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isConnectionLost(err)) throw err;
    log.warn("database connection lost during a read; reading again on a new connection", { err });
    return again();
  }
}

/** `run` on a connection opened for it with the pool's settings, closed after. */
export async function onNewConnection<T>(pool: pg.Pool, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(pool.options);
  client.on("error", () => undefined); // a failure reaches `run` as its rejection
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A single SELECT (not SELECT ... FOR UPDATE/SHARE): a statement that reads and changes nothing. */
const READ_ONLY = /^\s*SELECT\b(?![\s\S]*\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE|KEY\s+SHARE)\b)/i;

/**
 * A pool whose one-statement reads (`pool.query` with a SELECT, outside any transaction) are read
 * again on a new connection when theirs was lost (readWithRetry). Transactions check a client out
 * with `connect()`, which this leaves alone: a transaction that lost its connection fails as a
 * whole. Prisma's driver adapter is given one too (app/db.server.ts), so both pools behave alike.
 */
export class ReadRetryingPool extends pg.Pool {
  // pg's overloads of query() cannot be restated one by one; the arguments pass through untouched.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const run = () => (super.query as (...a: unknown[]) => unknown).apply(this, args);
    const first = args[0] as string | { text?: string; submit?: unknown } | undefined;
    const text = typeof first === "string" ? first : first?.text;
    const callback = typeof args[args.length - 1] === "function";
    if (callback || (typeof first === "object" && first?.submit) || !text || !READ_ONLY.test(text)) return run();
    // pg writes its callback into a query config object it is given: the read again gets a copy
    // taken before. A named statement is prepared again on the new connection, as pg does.
    const again = [typeof first === "object" ? { ...first } : first, ...args.slice(1)];
    return readWithRetry(
      () => run() as Promise<unknown>,
      () => onNewConnection(this, (client) => (client.query as (...a: unknown[]) => Promise<unknown>).apply(client, again)),
    );
  }
}

let pool: pg.Pool | undefined;

export function hotPool(): pg.Pool {
  if (pool) return pool;
  pool = new ReadRetryingPool({
    connectionString: env().DATABASE_URL,
    max: env().HOT_POOL_MAX,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    types: timestampTypes(parseUtc),
  });
  // An idle client whose backend dies (database restart, failover, pg_terminate_backend) emits
  // `error` on the pool; unheard, that event kills the process. The pool has already dropped the
  // client: the next query opens a fresh connection. A query in flight fails on its own (the
  // request it serves answers 500) and its client is discarded on release;
  // a read in flight is tried again once (ReadRetryingPool).
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
 * statement when `name` is given (unless DATABASE_PGBOUNCER); with `isoTimestamps`, timestamp columns come back as ISO
 * strings instead of Dates. Dates go as UTC (`utcParam`), like every timestamp Prisma writes.
 */
export async function hotQuery<T extends pg.QueryResultRow>(
  sql: { text: string; values: unknown[] },
  opts: { name?: string; isoTimestamps?: boolean } = {},
): Promise<T[]> {
  const { rows } = await hotPool().query<T>({
    text: sql.text,
    values: sql.values.map(utcParam),
    // Behind PgBouncer in transaction mode a named statement prepared on one server connection
    // is unknown on the next (docs/decisions/145-connections-pgbouncer.md): unnamed there.
    ...(opts.name && !env().DATABASE_PGBOUNCER ? { name: opts.name } : {}),
    ...(opts.isoTimestamps ? { types: ISO_TIMESTAMPS } : {}),
  });
  return rows;
}
