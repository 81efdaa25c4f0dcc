// The app as e2e tests see it: a fresh database cloned from the test template, the simulator,
// workers and the built web server, all on ports of their own.
import pg from "pg";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { TEMPLATE_DB } from "../setup/workers";

const port = Number(process.env.E2E_PORT ?? 4390);
const db = "subscriptions_test_e2e";
const pgBase = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const admin = new pg.Client({ connectionString: `${pgBase}/postgres` });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${db}" TEMPLATE "${TEMPLATE_DB}"`);
await admin.end();

rmSync(".data/e2e", { recursive: true, force: true });

const env = {
  ...process.env,
  NODE_ENV: "test" as const,
  DATABASE_URL: `${pgBase}/${db}`,
  REDIS_URL: `${process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"}/4`,
  REDIS_PREFIX: "e2e",
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
