// The names one test run uses. Two checkouts on one machine test side by side:
// every database, Redis key prefix and port of a run is derived from its run id, which is
// a hash of the checkout's path unless TEST_RUN_ID says otherwise. Re-running in one checkout
// reuses its own names (nothing accumulates); another checkout never touches them.
import { createHash } from "node:crypto";

/** How many Vitest workers run at once; each gets its own database, Redis prefix and ports. */
export const TEST_WORKERS = 3;

const hash = createHash("sha256").update(process.cwd()).digest();
export const RUN_ID = (process.env.TEST_RUN_ID ?? hash.toString("hex").slice(0, 8)).replace(/[^a-z0-9]/gi, "").toLowerCase();

/**
 * First port of the run's block (1,000 ports: worker N uses base + N*100 .. +99, e2e base + 900).
 * Blocks lie in 10000-31999, below Linux's ephemeral range (32768-60999): a port there can be the
 * local end of any outgoing connection, and its TIME_WAIT makes a later listen() fail with
 * EADDRINUSE (seen as random "address already in use" failures in full runs).
 */
export const PORT_BASE = Number(process.env.TEST_PORT_BASE ?? 10_000 + (hash.readUInt16BE(0) % 22) * 1_000);
// An explicit TEST_PORT_BASE is held to the same rule: a run whose block reaches the ephemeral
// range fails at once, saying why, not later with random EADDRINUSE failures.
if (!Number.isInteger(PORT_BASE) || PORT_BASE < 1024 || PORT_BASE + 999 >= 32_768) {
  throw new Error(`TEST_PORT_BASE=${process.env.TEST_PORT_BASE}: the run's 1,000 ports must lie between 1024 and 32767 (below Linux's ephemeral range)`);
}

/** Debian's chromium, which the e2e tests drive; `npm test` installs it when it is missing (scripts/chromium.ts). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const PG_BASE = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
/** All of a run's Redis keys share one database and differ by prefix (never FLUSHDB in tests). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/1";

export const TEMPLATE_DB = `subscriptions_test_${RUN_ID}_template`;
export const workerDb = (id: number | "e2e") => `subscriptions_test_${RUN_ID}_${id}`;
export const redisPrefix = (id: number | "e2e") => `t${RUN_ID}${id}`;
export const workerPort = (id: number) => PORT_BASE + id * 100;
export const E2E_PORT = PORT_BASE + 900;
/** With TEST_PGBOUNCER=1, the run's PgBouncer (transaction mode) that every worker connects through (tests/setup/global.ts). */
export const PGBOUNCER_PORT = PORT_BASE + 980;
/**
 * With TEST_REDIS_CLUSTER=1 (`npm run test:cluster`, vitest.cluster.config.ts), the run's local
 * three-master Redis Cluster on these ports (tests/setup/global.ts starts it, scripts/redis-cluster.ts)
 * and every worker's clients are cluster clients (REDIS_CLUSTER_NODES). Isolation stays by prefix:
 * a cluster has database 0 only.
 */
export const TEST_REDIS_CLUSTER = process.env.TEST_REDIS_CLUSTER === "1";
export const REDIS_CLUSTER_PORTS = [PORT_BASE + 950, PORT_BASE + 951, PORT_BASE + 952];
/**
 * The nodes' cluster bus ports, in the run's block too: Redis's default (port + 10,000) lands in
 * Linux's ephemeral range, where a TIME_WAIT of any outgoing connection made a node fail to bind.
 */
export const REDIS_CLUSTER_BUS_PORTS = [PORT_BASE + 960, PORT_BASE + 961, PORT_BASE + 962];
export const REDIS_CLUSTER_NODES = REDIS_CLUSTER_PORTS.map((p) => `127.0.0.1:${p}`).join(",");
