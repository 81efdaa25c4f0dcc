// One BullMQ queue per concern; workers for each scale independently (docs/decisions/004).
import { Queue, Worker, type Job, type JobsOptions, type WorkerOptions } from "bullmq";
import type {
  BillingOutcomePayload,
  BillingRunPayload,
  ContractWebhook,
  CustomerRef,
  CycleSkipWebhook,
  ExportRenderPayload,
  ImportRunPayload,
  MailSendPayload,
  NoData,
  PaymentMethodWebhookJob,
  SellingPlanGroupWebhook,
  ShopRef,
  WebhookAttemptPayload,
  FlowTriggerPayload,
  WinbackRunPayload,
} from "./job-payloads";
import { clusterMode, createRedis } from "./redis.server";
import { env } from "../env.server";
import { log } from "./log.server";

/**
 * Every queue, every job name in it, and the one payload type each job carries: the producer
 * (`enqueue`) and the worker (`Processors`, workers/processors.ts) are both typed from here, so
 * nothing is cast back in a worker (docs/decisions/040-typed-jobs.md).
 *
 * Adding a queue is one entry here: `billing: { "charge-cycle": BillingCyclePayload };`. The
 * compiler then names what else it needs: the queue in QUEUES below and its processors in
 * workers/processors.ts. Payloads cross Redis as JSON, so they hold JSON values only (a Date
 * would come back a string): JsonSafe below rejects anything else at compile time.
 */
export interface QueueJobs {
  /** Contract mirror: one job per inbound contract webhook, plus whole-shop reconciles. */
  mirror: {
    "sync-contract": ContractWebhook;
    "reconcile-shop": ShopRef;
    "sync-selling-plan-group": SellingPlanGroupWebhook;
    "sync-storefront": ShopRef;
    "confirm-cycle-skip": CycleSkipWebhook;
    "refresh-customer-cards": PaymentMethodWebhookJob;
  };
  /** GDPR: shop/redact, customers/redact, customers/data_request. */
  privacy: {
    "redact-shop": ShopRef;
    "redact-customer": CustomerRef;
    "customer-data-request": CustomerRef & { requestId: string };
  };
  /** Daily sweeps, started by job schedulers (not setInterval); they carry no data. */
  sweeps: {
    "daily-sweep": NoData;
    "reconcile-all": NoData;
    "exports-requeue": NoData;
    "imports-requeue": NoData;
    "webhooks-requeue": NoData;
    "mail-requeue": NoData;
    "card-expiry": NoData;
    "box-reminder": NoData;
    /** Hourly: one box-cutoff job per shop with a build-a-box bundle (docs/decisions/106). */
    "box-cutoff-tick": NoData;
    "box-cutoff": ShopRef;
    /** Every five minutes: due gift e-mails, bounces, expiries (docs/decisions/136). */
    "gifts-tick": NoData;
    /** Hourly: one winback-run per shop with an active campaign (docs/decisions/117). */
    "winback-tick": NoData;
    "winback-run": WinbackRunPayload;
  };
  /** Export jobs: one BullMQ job per export, its id the export's id (docs/decisions/057). */
  exports: {
    render: ExportRenderPayload;
  };
  /** Migration imports: one BullMQ job per import, its id the import's id (docs/decisions/085). */
  imports: {
    run: ImportRunPayload;
  };
  /** Outbound webhooks: an event's first attempts, or one delivery's next attempt (docs/decisions/052); an event's Flow trigger call (docs/decisions/128). */
  webhooks: {
    deliver: WebhookAttemptPayload;
    "flow-trigger": FlowTriggerPayload;
  };
  /** The billing engine: scheduler ticks, one run per shop, billing-attempt outcomes (docs/decisions/080). */
  billing: {
    "billing-tick": NoData;
    "billing-run": BillingRunPayload;
    "billing-outcome": BillingOutcomePayload;
  };
  /** Customer e-mail: one job per message row; the row, not the job, is the truth (docs/decisions/101). */
  mail: {
    send: MailSendPayload;
  };
}

export type QueueName = keyof QueueJobs;
export type JobName<Q extends QueueName> = keyof QueueJobs[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q>> = QueueJobs[Q][N];
/** A job as its processor receives it: the data is the payload type its producer sent. */
export type TypedJob<Q extends QueueName, N extends JobName<Q>> = Job<JobData<Q, N>, unknown, N>;
/** One processor per job of every queue (workers/processors.ts implements it). */
export type Processors = { [Q in QueueName]: { [N in JobName<Q>]: (job: TypedJob<Q, N>) => Promise<unknown> } };

/**
 * Runs the processor of `job.name` on a job of queue Q, the worker side of `enqueue`. The job's
 * data came back from Redis; it is the payload `enqueue` checked for the same queue and name.
 */
export function dispatch<Q extends QueueName>(handlers: Processors[Q], job: Job<JobData<Q, JobName<Q>>, unknown, JobName<Q>>): Promise<unknown> {
  const handler: (job: TypedJob<Q, JobName<Q>>) => Promise<unknown> = handlers[job.name];
  return handler(job);
}

/** A BullMQ worker for queue Q running its typed processors (workers/main.ts, and tests in-process). */
export function createWorker<Q extends QueueName>(
  name: Q,
  handlers: Processors[Q],
  opts: Omit<WorkerOptions, "connection" | "prefix">,
): Worker<JobData<Q, JobName<Q>>, unknown, JobName<Q>> {
  return new Worker<JobData<Q, JobName<Q>>, unknown, JobName<Q>>(
    name,
    async (job) => {
      if (!Object.hasOwn(handlers, job.name)) throw new Error(`No processor for ${name}/${job.name}`);
      return dispatch(handlers, job);
    },
    { ...opts, connection: queueConnection(), prefix: queuePrefix(name) },
  );
}

/** The queue names as values (typed against QueueJobs: a queue added there must be added here). */
export const QUEUES: { readonly [Q in QueueName]: Q } = {
  mirror: "mirror",
  privacy: "privacy",
  sweeps: "sweeps",
  exports: "exports",
  imports: "imports",
  webhooks: "webhooks",
  billing: "billing",
  mail: "mail",
};

type JsonSafe<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends Date | bigint | symbol | ((...args: never[]) => unknown)
    ? never
    : { [K in keyof T]: JsonSafe<T[K]> };
/** Compile-time check that every payload survives JSON (a type error names the offending field). */
type IsJsonSafe<T> = [T] extends [JsonSafe<T>] ? true : false;
export const PAYLOADS_ARE_JSON: IsJsonSafe<QueueJobs> = true;

// Every job retries with back-off; a job that exhausts them stays visible in the failed set.
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * The BullMQ prefix of queue `name`. One Redis: REDIS_PREFIX, as always. A cluster: one hash tag
 * per queue, `{<REDIS_PREFIX>:<queue>}`, so a queue's keys share a slot (BullMQ's scripts touch
 * several at once) while the queues spread over the masters (docs/decisions/162-queue-hash-tags.md).
 */
export function queuePrefix(name: QueueName): string {
  const e = env();
  if (!clusterMode(e)) return e.REDIS_PREFIX;
  return assertTaggedPrefix(`{${e.REDIS_PREFIX}:${name}}`);
}

/**
 * Refuses a BullMQ prefix that is not one whole hash tag on a cluster: with it every write of the
 * queue fails with CROSSSLOT (docs/decisions/162). Returns the prefix.
 */
export function assertTaggedPrefix(prefix: string): string {
  if (!/^\{[^{}]+\}$/.test(prefix)) {
    throw new Error(
      `Redis Cluster: the queue prefix "${prefix}" is not one hash tag such as "{svc:mirror}". BullMQ's scripts touch several keys of a queue at once, and on a cluster they must share a slot (docs/decisions/162-queue-hash-tags.md). Set REDIS_PREFIX to a plain name without braces; each queue is tagged {<REDIS_PREFIX>:<queue>}.`,
    );
  }
  return prefix;
}

/** Every queue's prefix, checked at start by workers and web (a cluster refuses an untagged one). */
export function checkQueuePrefixes(): string[] {
  return (Object.keys(QUEUES) as QueueName[]).map(queuePrefix);
}

let connection: ReturnType<typeof createRedis> | undefined;
const queues = new Map<QueueName, Queue>();

export function queueConnection() {
  connection ??= createRedis("queue");
  return connection;
}

/** The BullMQ queue, for reads and administration; jobs are added with `enqueue` (typed). */
export function queue(name: QueueName): Queue {
  let q = queues.get(name);
  if (!q) {
    q = new Queue(name, { connection: queueConnection(), prefix: queuePrefix(name), defaultJobOptions: DEFAULT_JOB_OPTIONS });
    // A Queue re-emits connection errors; an EventEmitter `error` nobody hears kills the process.
    q.on("error", (err) => log.warn("queue connection error", { queue: name, err }));
    queues.set(name, q);
  }
  return q;
}

/** Adds one job; its data is checked against the job's payload type. */
export function enqueue<Q extends QueueName, N extends JobName<Q>>(name: Q, job: N, data: JobData<Q, N>, opts?: JobsOptions): Promise<Job> {
  return queue(name).add(job, data, opts);
}

/** One job of queue Q with its payload, for enqueueBulk (name and data checked together). */
export type JobSpec<Q extends QueueName> = { [N in JobName<Q>]: { name: N; data: JobData<Q, N>; opts?: JobsOptions } }[JobName<Q>];
/** One job of any queue, for code that decides the queue at run time (inbound webhooks). */
export type AnyJobSpec = { [Q in QueueName]: { queue: Q } & JobSpec<Q> }[QueueName];

/** Adds a job whose queue was decided at run time. */
export function enqueueSpec(spec: AnyJobSpec, opts?: JobsOptions): Promise<Job> {
  return queue(spec.queue).add(spec.name, spec.data, { ...spec.opts, ...opts });
}

/**
 * Jobs per addBulk call: one call is one script over one slot, and on a cluster a huge one holds
 * that master for its whole length (docs/decisions/162). Chunks keep each step short everywhere.
 */
export const BULK_CHUNK = 500;

/** Adds several jobs to one queue, BULK_CHUNK jobs per round trip. */
export async function enqueueBulk<Q extends QueueName>(name: Q, jobs: JobSpec<Q>[]): Promise<Job[]> {
  const added: Job[] = [];
  for (let i = 0; i < jobs.length; i += BULK_CHUNK) added.push(...(await queue(name).addBulk(jobs.slice(i, i + BULK_CHUNK))));
  return added;
}

export async function closeQueues(): Promise<void> {
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
  connection?.disconnect();
  connection = undefined;
}
