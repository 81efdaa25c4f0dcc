// The PgBouncer pass (`npm run test:pgbouncer`; scripts/test.ts runs it after the Redis Cluster
// pass): key authentication, publishing and webhook delivery again, every worker's database reached
// through one Debian PgBouncer 1.18 in transaction mode with statement names off, started by
// tests/setup/global.ts (docs/decisions/145-connections-pgbouncer.md). The same files also run in
// the main pass against PostgreSQL directly.
import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config";

process.env.TEST_PGBOUNCER = "1";

/** The suites the PgBouncer pass runs: authentication, publish and delivery. */
export const PGBOUNCER_SUITES = [
  "tests/integration/http/keys.test.ts",
  "tests/integration/webhooks/delivery.test.ts",
  "tests/integration/webhooks/batched-attempts.test.ts",
];

// Every file in a process of its own: the main pass's projects (vitest.config.ts) are left out.
export default defineConfig({ ...base, test: { ...base.test, projects: undefined, include: PGBOUNCER_SUITES, exclude: configDefaults.exclude } });
