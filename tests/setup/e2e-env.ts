// The environment of the e2e run's app processes (tests/e2e/serve.ts), shared with e2e specs
// that run a script of the project against the same stack (the demo seed).
import { E2E_PORT, PG_BASE, REDIS_URL, redisPrefix, workerDb } from "./workers";

export function e2eEnv(): NodeJS.ProcessEnv {
  const port = E2E_PORT;
  return {
    ...process.env,
    NODE_ENV: "test",
    DATABASE_URL: `${PG_BASE}/${workerDb("e2e")}`,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix("e2e"),
    PORT: String(port),
    SIMULATOR_PORT: String(port + 1),
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    SHOPIFY_SIMULATOR_URL: `http://127.0.0.1:${port + 1}`,
    SIMULATOR_STATE_FILE: ".data/e2e/simulator.json",
    EXPORTS_DIR: ".data/e2e/exports",
  };
}
