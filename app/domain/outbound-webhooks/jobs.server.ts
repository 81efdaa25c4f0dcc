// Handing delivery attempts to BullMQ. PostgreSQL holds every delivery (the outbox); a job is only
// the fast path to its next attempt, so a lost job is re-created by the sweeper (sweep.server.ts)
// and a job whose attempt was already made does nothing (docs/decisions/051).
import type { JobsOptions } from "bullmq";
import { QUEUES, enqueueBulk } from "../../infra/queues.server";
import { log } from "../../infra/log.server";
import { MAX_ACTIVE_ENDPOINTS } from "./catalogue";

/** A retry's or a manual attempt's job id: one per (delivery, attempt), so adding it twice while it waits is a no-op. */
export const attemptJobId = (deliveryId: string, attempt: number) => `dlv-${deliveryId}-${attempt}`;
/** The job id of an event's first attempts: the sweeper re-adds them under it, a no-op while the job waits. */
export const firstAttemptsJobId = (eventId: string) => `evt-${eventId}-1`;

// Infrastructure failures inside an attempt (the database away) are retried by BullMQ; a job
// that still fails is removed, because the delivery row stays due and the sweeper re-adds it.
export const ATTEMPT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: true,
  removeOnFail: true,
};

/**
 * Jobs at once for a process serving the webhooks queue: a job is one event's first attempts (up to
 * MAX_ACTIVE_ENDPOINTS requests), and four jobs' worth per ten requests in flight keep
 * `maxInFlight` busy while other jobs record, complete and fetch (measured, docs/decisions/077:
 * twice that was 16 % slower, six or eight times no faster). WORKER_CONCURRENCY still wins when larger.
 */
export function webhookJobConcurrency(maxInFlight: number, workerConcurrency: number): number {
  return Math.max(workerConcurrency, Math.ceil((4 * maxInFlight) / MAX_ACTIVE_ENDPOINTS));
}

export interface AttemptToQueue {
  deliveryId: string;
  attempt: number;
  delayMs?: number;
}

/** One job per delivery: its next attempt (a retry on the ladder, or a manual attempt). */
export async function enqueueAttempts(items: readonly AttemptToQueue[]): Promise<void> {
  if (!items.length) return;
  await enqueueBulk(
    QUEUES.webhooks,
    items.map((i) => ({
      name: "deliver" as const,
      data: { deliveryIds: [i.deliveryId], attempt: i.attempt },
      opts: { ...ATTEMPT_JOB_OPTIONS, jobId: attemptJobId(i.deliveryId, i.attempt), delay: Math.max(0, i.delayMs ?? 0) },
    })),
  );
}

/** An event and the deliveries its publication wrote (publish.server.ts `Published`). */
export interface EventDeliveries {
  eventId: string;
  deliveryIds: readonly string[];
  /** A Flow trigger call was written for it (docs/decisions/128-flow-triggers.md). */
  flowCall?: boolean;
}

/** The job id of an event's Flow trigger call: the sweeper re-adds it under the same id. */
export const flowJobId = (eventId: string) => `flow-${eventId}`;

/** One job per Flow trigger call owed (flow-calls.server.ts makes it). */
export async function enqueueFlowCalls(eventIds: readonly string[]): Promise<void> {
  if (!eventIds.length) return;
  await enqueueBulk(
    QUEUES.webhooks,
    eventIds.map((eventId) => ({ name: "flow-trigger" as const, data: { eventId }, opts: { ...ATTEMPT_JOB_OPTIONS, jobId: flowJobId(eventId) } })),
  );
}

/** One job per event: the first attempt of each of its deliveries. */
export async function enqueueFirstAttempts(events: readonly EventDeliveries[]): Promise<void> {
  const jobs = events.filter((e) => e.deliveryIds.length);
  if (!jobs.length) return;
  await enqueueBulk(
    QUEUES.webhooks,
    jobs.map((e) => ({
      name: "deliver" as const,
      data: { deliveryIds: [...e.deliveryIds], attempt: 1 },
      opts: { ...ATTEMPT_JOB_OPTIONS, jobId: firstAttemptsJobId(e.eventId) },
    })),
  );
}

/** After the commit that wrote the deliveries: queue their first attempts. A failure is only logged: the sweeper has them. */
export async function dispatchDeliveries(events: readonly EventDeliveries[]): Promise<void> {
  try {
    await enqueueFirstAttempts(events);
    await enqueueFlowCalls(events.filter((e) => e.flowCall).map((e) => e.eventId));
  } catch (err) {
    log.warn("webhook deliveries not queued; the sweeper will queue them", { err, events: events.length });
  }
}
