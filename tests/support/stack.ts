// The whole app in-process for integration tests, on this Vitest worker's ports: the platform
// simulator, the built Remix app behind server.ts, and real BullMQ workers for every queue.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { env } from "../../app/env.server";
import { closeQueues, createWorker, QUEUES, type QueueName } from "../../app/infra/queues.server";
import { startSimulator } from "../../simulator/server";
import { SimulatorControl } from "../../simulator/control-client";
import { PROCESSORS } from "../../workers/processors";
import { startWebServer } from "../../server";
import { createInstalledShop } from "./fixtures";

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** A worker for every queue, or for every queue but those in `except` (a test runs those itself). */
export function startWorkers(except: readonly QueueName[] = []) {
  // A stalled-job check takes a Redis key for its whole interval, and no worker of the queue
  // checks again until it lapses: BullMQ's default 30 s, left behind by one test file, held up
  // the next file's killed-worker recovery (the fault tests' worker processes check every 1 s).
  // The lock stays at its default, so a busy test process never loses a job it is running.
  return Object.values(QUEUES)
    .filter((name) => !except.includes(name))
    .map((name) => createWorker(name, PROCESSORS[name], { concurrency: 4, stalledInterval: 1000 }));
}

/** The simulator on this worker's port, with a state file of its own. */
export function startTestSimulator() {
  const config = env();
  return startSimulator({
    port: config.SIMULATOR_PORT,
    stateFile: path.join(mkdtempSync(path.join(tmpdir(), "test-sim-")), "state.json"),
    appUrl: config.SHOPIFY_APP_URL,
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
    // Shopify retries for 48 hours; a few seconds is enough to ride out a loaded test machine.
    webhookRetryDelaysMs: [200, 1000, 3000],
  });
}

export async function startStack(opts: { workers?: boolean; workersExcept?: readonly QueueName[] } = {}) {
  const config = env();
  const sim = await startTestSimulator();
  const web = await startWebServer({ port: config.PORT, host: "127.0.0.1" });
  const workers = opts.workers === false ? [] : startWorkers(opts.workersExcept);
  const control = new SimulatorControl(sim.url);

  /** A shop installed on both sides (simulator token + offline session + shop row). */
  async function installShop(plan: "PRO" | "FREE" = "PRO") {
    const domain = `t-${randomUUID().slice(0, 12)}.myshopify.com`;
    const shop = await createInstalledShop(domain, await control.installShop({ shop: domain }), plan);
    return { domain, shopId: shop.id };
  }

  /** What happened to the shop's webhooks and jobs: the message of a failed wait. */
  async function diagnose(domain: string): Promise<string> {
    const deliveries = await control.call("GET", `${control.shop(domain)}/webhook-deliveries`).catch((e) => String(e));
    const { queue } = await import("../../app/infra/queues.server");
    const jobs = [];
    for (const name of [QUEUES.mirror, QUEUES.billing]) jobs.push(...(await queue(name).getJobs(["failed", "waiting", "active", "delayed"])));
    return `deliveries: ${JSON.stringify(deliveries)}\njobs: ${JSON.stringify(jobs.map((j) => [j.queueName, j.id, j.name, j.failedReason, j.data]))}`;
  }

  /** Waits for work that crosses the simulator, the app and a worker; on timeout says where it stopped. */
  async function settled<T>(domain: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
    try {
      return await eventually(check, timeoutMs);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${await diagnose(domain)}`, { cause: err });
    }
  }

  async function close() {
    await Promise.all(workers.map((w) => w.close()));
    await web.close();
    await sim.close();
    await closeQueues();
  }

  return { sim, web, control, workers, installShop, settled, close, appUrl: web.url };
}

/**
 * The stack for one test file: started before its first test, closed after its last. Call it at
 * the top of the file (`const stack = useStack();`); the answer stands for the running stack
 * inside tests and hooks.
 */
export function useStack(opts: Parameters<typeof startStack>[0] = {}, startTimeoutMs?: number): Stack {
  let current: Stack | undefined;
  beforeAll(async () => {
    current = await startStack(opts);
  }, startTimeoutMs);
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as Stack, {
    get(_target, prop) {
      if (!current) throw new Error("the test stack runs from beforeAll to afterAll: use it inside a test or a hook");
      return current[prop as keyof Stack];
    },
  });
}

/** Polls until `check` returns a truthy value (for work that finishes in a worker). */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Polls until `check` returns a truthy value for as long as the work makes progress: it gives up
 * only when `progress` (any JSON value: rows done, a status) has not changed for `stallMs`. A
 * loaded machine makes the wait longer, never a failure; a stuck run still fails.
 */
export async function eventuallyProgressing<T>(
  check: () => Promise<T | null | undefined | false>,
  progress: () => Promise<unknown>,
  stallMs = 90_000,
): Promise<T> {
  let seen = "";
  let movedAt = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      const now = JSON.stringify(await progress());
      if (now !== seen) [seen, movedAt] = [now, Date.now()];
    } catch (err) {
      last = err;
    }
    if (Date.now() - movedAt > stallMs) throw new Error(`no progress for ${stallMs} ms (last: ${seen})${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
