// Real worker processes (`tsx workers/main.ts`) against real Redis: a worker killed with SIGKILL
// in the middle of a job loses nothing, and SIGTERM lets the active job finish.
import { spawn, type ChildProcess } from "node:child_process";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { QUEUES, queue, queueConnection } from "../../../app/queues.server";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { eventually, startStack, type Stack } from "../../support/stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack.close();
});

function startWorker(queues: string = QUEUES.mirror, extraEnv: Record<string, string> = {}): ChildProcess & { ready: Promise<void> } {
  // node itself, not the tsx launcher: a signal must reach the process that runs the jobs.
  const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
    env: { ...process.env, WORKER_QUEUES: queues, WORKER_LOCK_MS: "1000", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("workers ready") && resolve());
    child.once("exit", (code) => reject(new Error(`worker exited early (${code})`)));
  });
  return Object.assign(child, { ready });
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

async function shopWithContracts(count: number) {
  const { domain, shopId } = await stack.installShop();
  await stack.control.call("POST", `${stack.control.shop(domain)}/contracts/bulk`, { count });
  return { domain, shopId };
}

describe("workers", () => {
  it("a job interrupted by SIGKILL runs again on another worker", async () => {
    const { domain, shopId } = await shopWithContracts(40);
    // The platform answers the first page slowly, so the job is mid-flight when killed.
    await stack.control.failNext(domain, { operation: "subscriptionContracts", delayMs: 4000 });

    const first = startWorker();
    await first.ready;
    const job = await queue(QUEUES.mirror).add("reconcile-shop", { domain }, { attempts: 1 });
    await eventually(async () => (await job.isActive()) || null);
    const gone = exited(first);
    first.kill("SIGKILL");
    expect((await gone).signal).toBe("SIGKILL");
    expect(await prisma.contract.count({ where: { shopId } })).toBe(0);

    const second = startWorker();
    await second.ready;
    try {
      await eventually(async () => (await job.isCompleted()) || null, 30_000);
      expect(await prisma.contract.count({ where: { shopId } })).toBe(40);
      // It completed on its single attempt: the stalled-job check handed it over, no retry was spent.
      const done = await queue(QUEUES.mirror).getJob(job.id!);
      expect(done?.returnvalue).toEqual({ contracts: 40 });
    } finally {
      const stopped = exited(second);
      second.kill("SIGTERM");
      expect((await stopped).code).toBe(0);
    }
    // Two cold worker starts, the 4 s platform delay, the lock lapse and up to 30 s for the
    // job: more than Vitest's default 30 s on a loaded machine.
  }, 90_000);

  it("SIGTERM lets the active job finish before the worker exits", async () => {
    const { domain, shopId } = await shopWithContracts(25);
    await stack.control.failNext(domain, { operation: "subscriptionContracts", delayMs: 1500 });
    const worker = startWorker();
    await worker.ready;
    const job = await queue(QUEUES.mirror).add("reconcile-shop", { domain });
    await eventually(async () => (await job.isActive()) || null);
    const stopped = exited(worker);
    worker.kill("SIGTERM");
    expect((await stopped).code).toBe(0);
    expect(await job.isCompleted()).toBe(true);
    expect(await prisma.contract.count({ where: { shopId } })).toBe(25);
  }, 60_000);

  it("the daily sweeps are BullMQ job schedulers, registered once however many workers start", async () => {
    const workers = [startWorker(QUEUES.sweeps), startWorker(QUEUES.sweeps)];
    await Promise.all(workers.map((w) => w.ready));
    const schedulers = await queue(QUEUES.sweeps).getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).toEqual(["daily-sweep", "exports-requeue", "reconcile-all"]);
    expect(schedulers.every((s) => s.pattern && s.tz === "UTC")).toBe(true);
    await Promise.all(workers.map((w) => { const e = exited(w); w.kill("SIGTERM"); return e; }));
  });

  it("the job schedulers come back by themselves after Redis loses its data", async () => {
    const worker = startWorker(QUEUES.sweeps, { WORKER_SCHEDULE_CHECK_MS: "500" });
    await worker.ready;
    try {
      const keys = async () => (await queue(QUEUES.sweeps).getJobSchedulers()).map((s) => s.key).sort();
      expect(await keys()).toEqual(["daily-sweep", "exports-requeue", "reconcile-all"]);
      // Redis loses everything under this run's prefix (never FLUSHDB: tests/support/redis-keys.ts).
      expect(await deleteRedisPrefix(queueConnection(), env().REDIS_PREFIX)).toBeGreaterThan(0);
      expect(await keys()).toEqual([]);
      await eventually(async () => (await keys()).length === 3, 60_000);
      expect(await keys()).toEqual(["daily-sweep", "exports-requeue", "reconcile-all"]);
      // Each scheduler has its next run waiting again, not just its definition.
      await eventually(async () => (await queue(QUEUES.sweeps).getDelayedCount()) >= 3, 30_000);
    } finally {
      const stopped = exited(worker);
      worker.kill("SIGTERM");
      expect((await stopped).code).toBe(0);
    }
  }, 150_000);
});
