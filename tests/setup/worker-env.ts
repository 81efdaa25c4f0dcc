// Before any app module is imported in a test file: point this worker at its own database,
// Redis index and ports, so files in different workers never touch each other's state.
import { applyLocalDefaults } from "../../scripts/local-env";
import { workerDb } from "./workers";

const id = Number(process.env.VITEST_POOL_ID ?? "1");
const pgBase = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const redisBase = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

process.env.NODE_ENV = "test";
process.env.DATABASE_URL = `${pgBase}/${workerDb(id)}`;
process.env.REDIS_URL = `${redisBase}/${id}`;
process.env.REDIS_PREFIX = `test${id}`;
process.env.PORT = String(4300 + id);
process.env.SIMULATOR_PORT = String(4400 + id);
process.env.SHOPIFY_APP_URL = `http://127.0.0.1:${process.env.PORT}`;
process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${process.env.SIMULATOR_PORT}`;
process.env.SIMULATOR_STATE_FILE = `.data/test-${id}/simulator.json`;
process.env.EXPORTS_DIR = `.data/test-${id}/exports`;
process.env.LOG_LEVEL = "error";
applyLocalDefaults(process.env);
