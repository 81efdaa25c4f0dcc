// Checks for the two services every process needs, with messages that say what to do.
import pg from "pg";
import { Redis } from "ioredis";

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
