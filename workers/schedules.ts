// The job schedulers (daily sweep, nightly reconcile: SCHEDULES in ./processors) live in Redis.
// Redis can lose them (a restart without persistence, a failover to an empty replica, an
// eviction), and BullMQ never re-creates a scheduler by itself, so every worker process
// re-asserts them at start and then every WORKER_SCHEDULE_CHECK_MS (docs/decisions/004-queue-layout.md).
// upsertJobScheduler is idempotent: any number of workers asserting them keeps exactly one each.
import { queue, type QueueName } from "../app/infra/queues.server";
import { log } from "../app/infra/log.server";
import { SCHEDULES } from "./processors";

export async function assertSchedules(queues: readonly QueueName[]): Promise<void> {
  for (const s of SCHEDULES) {
    if (queues.includes(s.queue)) await queue(s.queue).upsertJobScheduler(s.id, { pattern: s.pattern, tz: "UTC" }, { name: s.name });
  }
}

/** Re-asserts the schedulers every `intervalMs` until the returned stop() is called. */
export function keepSchedules(queues: readonly QueueName[], intervalMs: number): () => void {
  // Only a process that serves a scheduled queue keeps a timer.
  if (!SCHEDULES.some((s) => queues.includes(s.queue))) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    assertSchedules(queues)
      .catch((err) => log.warn("could not re-assert the job schedulers; next try in the next interval", { err }))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref(); // never what keeps a worker process alive
  return () => clearInterval(timer);
}
