import { configDefaults, defineConfig } from "vitest/config";
import path from "node:path";
import { TEST_WORKERS } from "./tests/setup/workers";

const ALL = ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"];
// Needs the run's Redis Cluster: the cluster pass runs it (vitest.cluster.config.ts).
const CLUSTER_ONLY = "tests/integration/scale/redis-cluster.test.ts";
/**
 * Files that change the process for themselves (environment read once by env(), the time zone,
 * global fetch, the app's routing to a simulator of their own): each runs in a fresh process.
 * Every other file shares its worker's process with the files before it, so the app's modules
 * are loaded once per worker, not once per file (docs/decisions/171).
 */
const OWN_PROCESS = [
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
      { extends: true, test: { name: "own-process", include: OWN_PROCESS } },
      { extends: true, test: { name: "shared-process", include: ALL, exclude: [...configDefaults.exclude, CLUSTER_ONLY, ...OWN_PROCESS], isolate: false } },
    ],
  },
});
