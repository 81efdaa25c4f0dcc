// Checks for the two services every process needs, with messages that say what to do (the
// browser the e2e tests drive is checked by scripts/chromium.ts).
import { readdirSync } from "node:fs";
import pg from "pg";
import { Cluster, Redis } from "ioredis";

/** Creates the database named in the URL when the server is up but the database is not. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`PostgreSQL is not reachable at ${target.host} (${(err as Error).message}). Start it, or set DATABASE_URL.`, { cause: err });
  }
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Checks the Redis this process is configured for: REDIS_URL, or with REDIS_CLUSTER_NODES the
 * cluster, which must report `cluster_state:ok` (docs/decisions/161-redis-cluster-client.md).
 */
export async function checkConfiguredRedis(source: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!source.REDIS_CLUSTER_NODES) return checkRedis(source.REDIS_URL!);
  const { clusterConfig } = await import("./redis.server");
  const { parseEnv } = await import("../env.server");
  const { nodes, options } = clusterConfig(parseEnv(source), { maxRetriesPerRequest: 0, connectTimeout: 3000 });
  const c = new Cluster(nodes, { ...options, lazyConnect: true, clusterRetryStrategy: () => null });
  try {
    await c.connect();
    const info = await c.cluster("INFO");
    if (!/cluster_state:ok/.test(info)) throw new Error("cluster_state is not ok");
  } catch (err) {
    throw new Error(`Redis Cluster is not reachable at ${source.REDIS_CLUSTER_NODES} (${(err as Error).message}). Start it, or unset REDIS_CLUSTER_NODES.`, {
      cause: err,
    });
  } finally {
    c.disconnect();
  }
}

export async function checkRedis(url: string): Promise<void> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3000, retryStrategy: () => null });
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    throw new Error(`Redis is not reachable at ${url} (${(err as Error).message}). Start it, or set REDIS_URL.`, { cause: err });
  } finally {
    r.disconnect();
  }
}

/**
 * Refuses to go on with a database that `npm run setup` has not prepared: unreachable, missing,
 * or behind prisma/migrations. Entry points of the npm scripts call it (outside production) so a
 * first run right after `npm ci` says what to do instead of failing deep in a query.
 */
export async function assertDatabaseReady(url: string, migrationsDir = "prisma/migrations"): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const expected = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`The database ${name} is not reachable (${(err as Error).message}): start PostgreSQL and run \`npm run setup\`, or set DATABASE_URL.`, {
      cause: err,
    });
  }
  try {
    const { rows } = await client.query<{ ok: boolean }>("SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS ok");
    const applied = rows[0]?.ok
      ? new Set(
          (
            await client.query<{ name: string }>(
              "SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
            )
          ).rows.map((r) => r.name),
        )
      : new Set<string>();
    const missing = expected.filter((m) => !applied.has(m));
    if (missing.length) {
      throw new Error(
        `The database ${name} is not migrated (${missing.length} of ${expected.length} migrations missing, first ${missing[0]}): run \`npm run setup\` (or \`npm run db:deploy\`).`,
      );
    }
  } finally {
    await client.end();
  }
}
