// Real worker processes (`tsx workers/main.ts`) against real Redis: a worker killed with SIGKILL
// in the middle of a job loses nothing, and SIGTERM lets the active job finish.
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { QUEUES, enqueue, queue, queueConnection } from "../../../app/infra/queues.server";
import { exited, startWorker } from "../../support/processes";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { eventually, useStack } from "../../support/stack";

const stack = useStack({ workers: false });

const mirrorWorker = (extraEnv: Record<string, string> = {}) => startWorker(QUEUES.mirror, extraEnv);

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

    const first = mirrorWorker();
    await first.ready;
    const job = await enqueue(QUEUES.mirror, "reconcile-shop", { domain }, { attempts: 1 });
    await eventually(async () => (await job.isActive()) || null);
    const gone = exited(first);
    first.kill("SIGKILL");
    expect((await gone).signal).toBe("SIGKILL");
    expect(await prisma.contract.count({ where: { shopId } })).toBe(0);

    const second = mirrorWorker();
    await second.ready;
    try {
      await eventually(async () => (await job.isCompleted()) || null, 30_000);
      expect(await prisma.contract.count({ where: { shopId } })).toBe(40);
      // It completed on its single attempt: the stalled-job check handed it over, no retry was spent.
      const done = await queue(QUEUES.mirror).getJob(job.id!);
      expect(done?.returnvalue).toEqual({ contracts: 40, via: "pages" }); // a small shop is paged (docs/decisions/097)
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
    const worker = mirrorWorker();
    await worker.ready;
    const job = await enqueue(QUEUES.mirror, "reconcile-shop", { domain });
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
    expect(schedulers.map((s) => s.key).sort()).toEqual([
      "box-cutoff-tick",
      "box-reminder",
      "card-expiry",
      "daily-sweep",
      "exports-requeue",
      "gifts-tick",
      "imports-requeue",
      "mail-requeue",
      "reconcile-all",
      "webhooks-requeue",
      "winback-tick",
    ]);
    expect(schedulers.every((s) => s.pattern && s.tz === "UTC")).toBe(true);
    await Promise.all(
      workers.map((w) => {
        const e = exited(w);
        w.kill("SIGTERM");
        return e;
      }),
    );
  });

  it("the job schedulers come back by themselves after Redis loses its data", async () => {
    const worker = startWorker(QUEUES.sweeps, { WORKER_SCHEDULE_CHECK_MS: "500" });
    await worker.ready;
    try {
      const keys = async () => (await queue(QUEUES.sweeps).getJobSchedulers()).map((s) => s.key).sort();
      expect(await keys()).toEqual([
        "box-cutoff-tick",
        "box-reminder",
        "card-expiry",
        "daily-sweep",
        "exports-requeue",
        "gifts-tick",
        "imports-requeue",
        "mail-requeue",
        "reconcile-all",
        "webhooks-requeue",
        "winback-tick",
      ]);
      // Redis loses everything under this run's prefix (never FLUSHDB: tests/support/redis-keys.ts).
      expect(await deleteRedisPrefix(queueConnection(), env().REDIS_PREFIX)).toBeGreaterThan(0);
      expect(await keys()).toEqual([]);
      await eventually(async () => (await keys()).length === 11, 60_000);
      expect(await keys()).toEqual([
        "box-cutoff-tick",
        "box-reminder",
        "card-expiry",
        "daily-sweep",
        "exports-requeue",
        "gifts-tick",
        "imports-requeue",
        "mail-requeue",
        "reconcile-all",
        "webhooks-requeue",
        "winback-tick",
      ]);
      // Each scheduler has its next run waiting again, not just its definition.
      await eventually(async () => (await queue(QUEUES.sweeps).getDelayedCount()) >= 7, 30_000);
    } finally {
      const stopped = exited(worker);
      worker.kill("SIGTERM");
      expect((await stopped).code).toBe(0);
    }
  }, 150_000);
});
