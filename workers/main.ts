// Worker process: one BullMQ Worker per queue (all queues unless WORKER_QUEUES names some).
// SIGTERM/SIGINT: stop taking jobs and let the active ones finish; a job still running after
// the grace period is abandoned to BullMQ's stalled-job check, which hands it to another
// worker. SIGKILL loses nothing for the same reason: the job's lock expires and it runs again.
import { Worker } from "bullmq";
import { applyLocalDefaults } from "../scripts/local-env";

applyLocalDefaults();
const { env } = await import("../app/env.server");
const { QUEUES, queueConnection, closeQueues } = await import("../app/queues.server");
const { PROCESSORS } = await import("./processors");
const { assertSchedules, keepSchedules } = await import("./schedules");
const { log } = await import("../app/log.server");

const config = env();
const selected = (config.WORKER_QUEUES || Object.values(QUEUES).join(","))
  .split(",")
  .map((q) => q.trim())
  .filter(Boolean) as (keyof typeof PROCESSORS)[];
const lockDuration = config.WORKER_LOCK_MS;
const graceMs = config.WORKER_SHUTDOWN_GRACE_MS;

const workers = selected.map((name) => {
  const handlers = PROCESSORS[name];
  if (!handlers) throw new Error(`Unknown queue in WORKER_QUEUES: ${name}`);
  const worker = new Worker(
    name,
    async (job) => {
      const handler = handlers[job.name];
      if (!handler) throw new Error(`No processor for ${name}/${job.name}`);
      return handler(job);
    },
    {
      connection: queueConnection(),
      prefix: config.REDIS_PREFIX,
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration,
      stalledInterval: lockDuration,
      maxStalledCount: 5,
    },
  );
  worker.on("failed", (job, err) => log.warn("job failed", { queue: name, job: job?.name, id: job?.id, attempt: job?.attemptsMade, err }));
  worker.on("error", (err) => log.error("worker error", { queue: name, err }));
  return worker;
});

await assertSchedules(selected);
const stopSchedules = keepSchedules(selected, config.WORKER_SCHEDULE_CHECK_MS);
log.info("workers started", { queues: selected });
console.log(`workers ready: ${selected.join(", ")}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("workers stopping", { signal });
  stopSchedules();
  const forced = setTimeout(() => {
    log.warn("grace period over: abandoning active jobs to the stalled-job check");
    process.exit(1);
  }, graceMs);
  await Promise.all(workers.map((w) => w.close()));
  await closeQueues();
  clearTimeout(forced);
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
