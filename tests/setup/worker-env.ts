// Before any app module is imported in a test file: point this worker at its own database,
// Redis prefix and ports, so files in different workers (and other checkouts' runs) never touch
// each other's state (tests/setup/workers.ts).
import { applyLocalDefaults } from "../../app/infra/local-env";
import { PGBOUNCER_PORT, PG_BASE, REDIS_CLUSTER_NODES, REDIS_URL, TEST_REDIS_CLUSTER, redisPrefix, workerDb, workerPort } from "./workers";

const id = Number(process.env.VITEST_POOL_ID ?? "1");

process.env.NODE_ENV = "test";
process.env.DATABASE_URL = `${PG_BASE}/${workerDb(id)}`;
// TEST_PGBOUNCER=1: through the run's PgBouncer in transaction mode, statement names off
// (docs/decisions/145-connections-pgbouncer.md).
if (process.env.TEST_PGBOUNCER === "1") {
  process.env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${PGBOUNCER_PORT}/${workerDb(id)}`;
  process.env.DATABASE_PGBOUNCER = "true";
}
process.env.REDIS_URL = REDIS_URL;
process.env.REDIS_PREFIX = redisPrefix(id);
// TEST_REDIS_CLUSTER=1: every client of this worker is a cluster client (docs/decisions/161).
if (TEST_REDIS_CLUSTER) process.env.REDIS_CLUSTER_NODES = REDIS_CLUSTER_NODES;
process.env.PORT = String(workerPort(id));
process.env.SIMULATOR_PORT = String(workerPort(id) + 10);
process.env.SHOPIFY_APP_URL = `http://127.0.0.1:${process.env.PORT}`;
process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${process.env.SIMULATOR_PORT}`;
process.env.SIMULATOR_STATE_FILE = `.data/test-${id}/simulator.json`;
process.env.EXPORTS_DIR = `.data/test-${id}/exports`;
process.env.LOG_LEVEL = "error";
// The mailbox (SMTP catcher) of this worker: tests start it on these ports (tests/support/mailbox.ts).
process.env.MAILBOX_SMTP_PORT = String(workerPort(id) + 20);
process.env.MAILBOX_WEB_PORT = String(workerPort(id) + 21);
process.env.SMTP_URL = `smtp://127.0.0.1:${process.env.MAILBOX_SMTP_PORT}`;
process.env.MAIL_LEDGER_URL = `http://127.0.0.1:${process.env.MAILBOX_WEB_PORT}/api/accepted`;
// `npm start` processes a test spawns (run-all) leave the mailbox to the test that wants one.
process.env.MAILBOX = "off";
// Deferred mail is retried after 200 ms, 400 ms, ... (production: a minute, doubling).
process.env.MAIL_RETRY_BASE_MS = "200";
process.env.MAILGUN_SIGNING_KEY = "test-mailgun-signing-key-0123456789";
applyLocalDefaults(process.env);
