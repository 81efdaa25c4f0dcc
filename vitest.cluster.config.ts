// The Redis Cluster pass (`npm run test:cluster`; scripts/test.ts runs it after the main run):
// the suites whose work goes through Redis, against a local three-master cluster started by
// tests/setup/global.ts, every client a cluster client (docs/decisions/161-redis-cluster-client.md,
// 162-queue-hash-tags.md). The same files also run in the main pass against one Redis.
import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

process.env.TEST_REDIS_CLUSTER = "1";

/** The suites the cluster pass runs: workers, sweeps, webhook durability and delivery, rate limits, key usage, exports, billing. */
export const CLUSTER_SUITES = [
  "tests/integration/scale/redis-cluster.test.ts",
  "tests/integration/foundation/workers.test.ts",
  "tests/integration/foundation/sweeps.test.ts",
  "tests/integration/webhooks/durability.test.ts",
  "tests/integration/webhooks/delivery.test.ts",
  "tests/integration/http/rate-limit.test.ts",
  "tests/integration/platform/shop-budget.test.ts",
  "tests/integration/embedded/key-usage.test.ts",
  "tests/integration/exports/lifecycle.test.ts",
  "tests/integration/exports/worker-crash.test.ts",
  "tests/integration/billing/renewals.test.ts",
  "tests/integration/billing/worker-crash.test.ts",
];

// Every file in a process of its own: the main pass's projects (vitest.config.ts) are left out.
export default defineConfig({ ...base, test: { ...base.test, projects: undefined, include: CLUSTER_SUITES, exclude: configDefaults.exclude } });
