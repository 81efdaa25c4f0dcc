// The app as e2e tests see it: a fresh database cloned from the test template, the simulator,
// workers and the built web server, all on ports of their own; and the certificate of the
// webhook receivers the tests start, made before the workers that must trust it.
import pg from "pg";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { PG_BASE, REDIS_URL, TEMPLATE_DB, redisPrefix, workerDb } from "../setup/workers";
import { Redis } from "ioredis";
import { deleteRedisPrefix } from "../support/redis-keys";
import { E2E_RECEIVER_CERT_DIR, e2eEnv } from "../setup/e2e-env";
import { makeCert } from "../support/https-receiver";

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
makeCert(E2E_RECEIVER_CERT_DIR);

const env = e2eEnv();
const child = spawn("node_modules/.bin/tsx", ["scripts/run-all.ts"], { env, stdio: "inherit" });
const stop = () => child.kill("SIGTERM");
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
