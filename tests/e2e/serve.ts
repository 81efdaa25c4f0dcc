// The app as e2e tests see it: a fresh database cloned from the test template, the simulator,
// workers and the built web server, all on ports of their own.
import pg from "pg";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { E2E_PORT, PG_BASE, REDIS_URL, TEMPLATE_DB, redisPrefix, workerDb } from "../setup/workers";
import { Redis } from "ioredis";
import { deleteRedisPrefix } from "../support/redis-keys";

const port = E2E_PORT;
const db = workerDb("e2e");
const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${db}" TEMPLATE "${TEMPLATE_DB}"`);
await admin.end();
const redis = new Redis(REDIS_URL);
await deleteRedisPrefix(redis, redisPrefix("e2e"));
redis.disconnect();

rmSync(".data/e2e", { recursive: true, force: true });

const env = {
  ...process.env,
  NODE_ENV: "test" as const,
  DATABASE_URL: `${PG_BASE}/${db}`,
  REDIS_URL,
  REDIS_PREFIX: redisPrefix("e2e"),
  PORT: String(port),
  SIMULATOR_PORT: String(port + 1),
  SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
  SHOPIFY_SIMULATOR_URL: `http://127.0.0.1:${port + 1}`,
  SIMULATOR_STATE_FILE: ".data/e2e/simulator.json",
  EXPORTS_DIR: ".data/e2e/exports",
};
const child = spawn("node_modules/.bin/tsx", ["scripts/run-all.ts"], { env, stdio: "inherit" });
const stop = () => child.kill("SIGTERM");
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
