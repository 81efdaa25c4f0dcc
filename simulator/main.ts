// `npm run simulator`: the platform simulator as its own process. Configuration comes from the
// environment, checked by a schema of its own so it runs without DATABASE_URL or Redis.
import { z } from "zod";
import { applyLocalDefaults } from "../app/infra/local-env";
import { log } from "./log";
import { startSimulator } from "./server";

applyLocalDefaults(process.env);

const SimulatorEnv = z.object({
  SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  SIMULATOR_HOST: z.string().default("127.0.0.1"),
  SIMULATOR_STATE_FILE: z.string().default(".data/simulator.json"),
  SHOPIFY_APP_URL: z.string().url(),
  SHOPIFY_API_KEY: z.string().min(1),
  SHOPIFY_API_SECRET: z.string().min(1),
  SHOPIFY_APP_TOML: z.string().default("shopify.app.toml"),
  // Delay before the state file is rewritten after a change (simulator/persistence.ts).
  SIMULATOR_PERSIST_MS: z.coerce.number().int().min(1).default(20),
});

const parsed = SimulatorEnv.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues) process.stderr.write(`  ${issue.path.join(".")}: ${issue.message}\n`);
  process.stderr.write("Invalid simulator configuration\n");
  process.exit(1);
}
const cfg = parsed.data;

const sim = await startSimulator({
  port: cfg.SIMULATOR_PORT,
  host: cfg.SIMULATOR_HOST,
  stateFile: cfg.SIMULATOR_STATE_FILE,
  appUrl: cfg.SHOPIFY_APP_URL,
  apiKey: cfg.SHOPIFY_API_KEY,
  apiSecret: cfg.SHOPIFY_API_SECRET,
  appTomlPath: cfg.SHOPIFY_APP_TOML,
  persistDelayMs: cfg.SIMULATOR_PERSIST_MS,
});
log.info("platform simulator listening", { url: sim.url, stateFile: cfg.SIMULATOR_STATE_FILE, appUrl: cfg.SHOPIFY_APP_URL });

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("platform simulator stopping", { signal });
  await sim.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
