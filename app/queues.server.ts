// One BullMQ queue per concern; workers for each scale independently (docs/decisions/004).
import { Queue, type JobsOptions } from "bullmq";
import { createRedis } from "./redis.server";
import { env } from "./env.server";
import { log } from "./log.server";

export const QUEUES = {
  /** Contract mirror: one job per inbound contract webhook, plus whole-shop reconciles. */
  mirror: "mirror",
  /** GDPR: shop/redact, customers/redact, customers/data_request. */
  privacy: "privacy",
  /** Daily sweeps, started by job schedulers (not setInterval). */
  sweeps: "sweeps",
  /** Export jobs: one BullMQ job per export, its id the export's id (docs/decisions/057). */
  exports: "exports",
} as const;

/** The payload of an `exports` queue job, shared by the producer and the worker. */
export interface ExportRenderPayload {
  exportId: string;
}

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

// Every job retries with back-off; a job that exhausts them stays visible in the failed set.
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

let connection: ReturnType<typeof createRedis> | undefined;
const queues = new Map<QueueName, Queue>();

export function queueConnection() {
  connection ??= createRedis("queue");
  return connection;
}

export function queue(name: QueueName): Queue {
  let q = queues.get(name);
  if (!q) {
    q = new Queue(name, { connection: queueConnection(), prefix: env().REDIS_PREFIX, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    // A Queue re-emits connection errors; an EventEmitter `error` nobody hears kills the process.
    q.on("error", (err) => log.warn("queue connection error", { queue: name, err }));
    queues.set(name, q);
  }
  return q;
}

export async function closeQueues(): Promise<void> {
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
  connection?.disconnect();
  connection = undefined;
}
