// The hot-path SQL pool: plain `pg`, for the two reads every API request pays for (the key
// lookup, and keyset pages of the lists). Everything else goes through Prisma. Measured in
// bench/kernel.ts and bench/admin.ts, Prisma's raw-query path through the driver adapter adds
// about 0.4 ms (key lookup) to 1.2 ms (a 250-row page) per query: most of both latency budgets.
// See docs/decisions/007-hot-path-sql.md.
import pg from "pg";
import { env } from "./env.server";
import { log } from "./log.server";

const TIMESTAMP = 1114; // timestamp without time zone: how Prisma stores DateTime

// Prisma writes UTC wall-clock values; pg's default parser would read them in the process's
// local zone (on a non-UTC server, key expiries would move by hours). Per pool, not global,
// so Prisma's own adapter is untouched.
const parseUtc = (value: string) => new Date(value.replace(" ", "T") + "Z");

let pool: pg.Pool | undefined;

export function hotPool(): pg.Pool {
  if (pool) return pool;
  pool = new pg.Pool({
    connectionString: env().DATABASE_URL,
    max: 10,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === TIMESTAMP && format !== "binary" ? parseUtc : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client whose backend dies (database restart, failover, pg_terminate_backend) emits
  // `error` on the pool; unheard, that event kills the process. The pool has already dropped the
  // client: the next query opens a fresh connection. A query in flight fails on its own (the
  // request it serves answers 500) and its client is discarded on release.
  pool.on("error", (err) => log.warn("hot pool: idle database connection lost; it will be replaced", { err }));
  return pool;
}

/** Runs a Prisma.sql fragment (its `$n` text and values) on the hot pool. */
export async function hotQuery<T extends pg.QueryResultRow>(sql: { text: string; values: unknown[] }, name?: string): Promise<T[]> {
  const { rows } = await hotPool().query<T>({ text: sql.text, values: sql.values, ...(name ? { name } : {}) });
  return rows;
}
