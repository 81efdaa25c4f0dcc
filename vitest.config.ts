import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { TEST_WORKERS } from "./tests/setup/workers";

const ALL = ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"];
// Needs the run's Redis Cluster: the cluster pass runs it (vitest.cluster.config.ts).
const CLUSTER_ONLY = "tests/integration/scale/redis-cluster.test.ts";
/**
 * Files that change the process for themselves (the environment env() reads once, the time zone,
 * global fetch, the app's routing to a simulator of their own).
 */
const CHANGE_THE_PROCESS = [
  "tests/integration/retention/winback-campaign.test.ts",
  "tests/integration/exports/enqueue-refused.test.ts",
  "tests/integration/exports/size-cap.test.ts",
  "tests/integration/http/contract-rules.test.ts",
  "tests/integration/scale/bounded-tables.test.ts",
  "tests/integration/scale/s3-exports.test.ts",
  "tests/integration/scale/pgbouncer.test.ts",
  "tests/integration/foundation/hot-pool.test.ts",
  "tests/integration/webhooks/delivery.test.ts",
  "tests/integration/webhooks/durability.test.ts",
  "tests/integration/webhooks/retry-and-reinstall.test.ts",
  "tests/integration/webhooks/events-feed.test.ts",
  "tests/integration/webhooks/batched-attempts.test.ts",
  "tests/unit/platform/routing.test.ts",
  "tests/integration/platform/simulator-rate-limits.test.ts",
  "tests/integration/platform/selling-plan-writes.test.ts",
];
/**
 * Files that start the app's processes (tests/support/processes.ts) to kill or starve them: they
 * wait on what a spawned worker does with a queue, so nothing left in a shared process by an
 * earlier file may serve that queue or hold its keys (docs/decisions/173-vitest-shared-processes.md).
 */
const START_PROCESSES = readdirSync("tests", { recursive: true, encoding: "utf8" })
  .map((f) => path.join("tests", f))
  .filter((f) => f.endsWith(".test.ts") && readFileSync(f, "utf8").includes("support/processes"));
/** Each of these runs in a fresh process; every other file shares its worker's process, so the app's modules load once per worker. */
const OWN_PROCESS = [...CHANGE_THE_PROCESS, ...START_PROCESSES];

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    globals: true,
    pool: "forks",
    maxWorkers: TEST_WORKERS,
    fileParallelism: true,
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "own-process", include: OWN_PROCESS, exclude: [...configDefaults.exclude, CLUSTER_ONLY] } },
      { extends: true, test: { name: "shared-process", include: ALL, exclude: [...configDefaults.exclude, CLUSTER_ONLY, ...OWN_PROCESS], isolate: false } },
    ],
  },
});
