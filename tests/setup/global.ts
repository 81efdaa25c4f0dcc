// Once per run: clone one database per worker from the migrated template (scripts/test.ts
// migrates the template first) and delete the workers' Redis keys (by prefix: other runs share
// the Redis database).
import pg from "pg";
import { Redis } from "ioredis";
import {
  PGBOUNCER_PORT,
  PG_BASE,
  REDIS_CLUSTER_BUS_PORTS,
  REDIS_CLUSTER_PORTS,
  REDIS_URL,
  TEST_REDIS_CLUSTER,
  TEST_WORKERS,
  TEMPLATE_DB,
  redisPrefix,
  workerDb,
} from "./workers";
import { startPgbouncer } from "../../scripts/pgbouncer";
import { startRedisCluster } from "../../scripts/redis-cluster";
import { deleteRedisPrefix } from "../support/redis-keys";

export default async function setup() {
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  try {
    for (let id = 1; id <= TEST_WORKERS; id++) {
      await admin.query(`DROP DATABASE IF EXISTS "${workerDb(id)}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${workerDb(id)}" TEMPLATE "${TEMPLATE_DB}"`);
    }
  } finally {
    await admin.end();
  }
  const stops: (() => Promise<void>)[] = [];
  if (TEST_REDIS_CLUSTER) {
    // TEST_REDIS_CLUSTER=1: a fresh three-master cluster for the run (empty: nothing to delete),
    // stopped at its end.
    const cluster = await startRedisCluster(REDIS_CLUSTER_PORTS, REDIS_CLUSTER_BUS_PORTS);
    stops.push(() => cluster.stop());
  } else {
    const redis = new Redis(REDIS_URL);
    for (let id = 1; id <= TEST_WORKERS; id++) await deleteRedisPrefix(redis, redisPrefix(id));
    redis.disconnect();
  }
  // TEST_PGBOUNCER=1: one PgBouncer in transaction mode for the run, stopped at its end.
  if (process.env.TEST_PGBOUNCER === "1") {
    const bouncer = await startPgbouncer({ port: PGBOUNCER_PORT, poolSize: 4 });
    stops.push(() => bouncer.stop());
  }
  if (stops.length) return async () => void (await Promise.all(stops.map((stop) => stop())));
}
