// Worker process: one BullMQ Worker per queue (all queues unless WORKER_QUEUES names some).
// SIGTERM/SIGINT: stop taking jobs and let the active ones finish; a job still running after
// the grace period is abandoned to BullMQ's stalled-job check, which hands it to another
// worker. SIGKILL loses nothing for the same reason: the job's lock expires and it runs again.
import type { QueueName } from "../app/infra/queues.server";
import { applyLocalDefaults } from "../app/infra/local-env";

applyLocalDefaults();
const { env } = await import("../app/env.server");
// The configuration is checked before the heavy imports, so a refused one stops the start at once.
const config = env();
const { QUEUES, checkQueuePrefixes, closeQueues, createWorker } = await import("../app/infra/queues.server");
const { PROCESSORS } = await import("./processors");
const { webhookJobConcurrency } = await import("../app/domain/outbound-webhooks/jobs.server");
const { assertSchedules, keepSchedules } = await import("./schedules");
const { log } = await import("../app/infra/log.server");

if (process.env.NODE_ENV !== "production") {
  // `npm run workers` right after `npm ci`: say what to run rather than failing inside a job.
  const { assertDatabaseReady } = await import("../app/infra/service-checks.server");
  await assertDatabaseReady(config.DATABASE_URL).catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
// On a Redis Cluster every queue's prefix must be one hash tag (docs/decisions/162-queue-hash-tags.md).
try {
  checkQueuePrefixes();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const selected = (config.WORKER_QUEUES || Object.values(QUEUES).join(","))
  .split(",")
  .map((q) => q.trim())
  .filter(Boolean) as QueueName[];
const lockDuration = config.WORKER_LOCK_MS;
const graceMs = config.WORKER_SHUTDOWN_GRACE_MS;

function startWorker<Q extends QueueName>(name: Q) {
  if (!Object.hasOwn(PROCESSORS, name)) throw new Error(`Unknown queue in WORKER_QUEUES: ${name}`);
  const worker = createWorker(name, PROCESSORS[name], {
    concurrency:
      name === QUEUES.webhooks
        ? webhookJobConcurrency(config.WEBHOOK_MAX_IN_FLIGHT, config.WORKER_CONCURRENCY)
        : name === QUEUES.mail
          ? // Each job waits mostly on SMTP: enough of them to keep the pooled connections busy.
            Math.max(config.WORKER_CONCURRENCY, config.SMTP_MAX_CONNECTIONS * 8)
          : config.WORKER_CONCURRENCY,
    lockDuration,
    stalledInterval: lockDuration,
    maxStalledCount: 5,
  });
  worker.on("failed", (job, err) => log.warn("job failed", { queue: name, job: job?.name, id: job?.id, attempt: job?.attemptsMade, err }));
  worker.on("error", (err) => log.error("worker error", { queue: name, err }));
  return worker;
}
const workers = selected.map((name) => startWorker(name));

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
  (await import("../app/infra/mailer.server")).closeMailTransport();
  clearTimeout(forced);
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
