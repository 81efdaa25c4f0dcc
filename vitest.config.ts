import { configDefaults, defineConfig } from "vitest/config";
import path from "node:path";
import { TEST_WORKERS } from "./tests/setup/workers";

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    globals: true,
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    // Needs the run's Redis Cluster: the cluster pass runs it (vitest.cluster.config.ts).
    exclude: [...configDefaults.exclude, "tests/integration/scale/redis-cluster.test.ts"],
    pool: "forks",
    maxWorkers: TEST_WORKERS,
    fileParallelism: true,
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/worker-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
