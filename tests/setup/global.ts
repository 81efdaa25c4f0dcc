// Once per run: clone one database per worker from the migrated template (scripts/test.ts
// migrates the template first) and empty the workers' Redis databases.
import pg from "pg";
import { Redis } from "ioredis";
import { TEST_WORKERS, TEMPLATE_DB, workerDb } from "./workers";

export default async function setup() {
  const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" });
  await admin.connect();
  try {
    for (let id = 1; id <= TEST_WORKERS; id++) {
      await admin.query(`DROP DATABASE IF EXISTS "${workerDb(id)}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${workerDb(id)}" TEMPLATE "${TEMPLATE_DB}"`);
    }
  } finally {
    await admin.end();
  }
  const redisBase = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  for (let id = 1; id <= TEST_WORKERS; id++) {
    const r = new Redis(`${redisBase}/${id}`);
    await r.flushdb();
    r.disconnect();
  }
}
