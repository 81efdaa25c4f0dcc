// The environment, checked once by zod. Every process (web, workers, simulator, CLI, tests)
// reads configuration only from here, so two copies run side by side on other databases/ports.
import { z } from "zod";

const secret = (what: string) => z.string().min(32, `${what} must be at least 32 characters (generate one with: openssl rand -hex 32)`);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .url()
    .refine((u) => /^postgres(ql)?:/.test(u), "must be a postgresql:// URL"),
  REDIS_URL: z
    .string()
    .url()
    .refine((u) => /^rediss?:/.test(u), "must be a redis:// URL"),
  // Prefix for every BullMQ queue and rate-limit key, so two copies can share one Redis.
  REDIS_PREFIX: z.string().min(1).default("svc"),
  // Redis Cluster (docs/decisions/161-redis-cluster-client.md): comma-separated host:port seed
  // nodes; set, every client is a cluster client and REDIS_URL is not used. TLS to every node,
  // an optional CA file, credentials, the NAT map (announced host:port=reachable host:port, ...)
  // and "passthrough" DNS (node host names kept as given, for TLS certificates that name them).
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^([^\s,:]+:\d+(,[^\s,:]+:\d+)*)?$/, "REDIS_CLUSTER_NODES must be comma-separated host:port pairs")
    .default(""),
  REDIS_CLUSTER_TLS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  REDIS_CLUSTER_TLS_CA_FILE: z.string().default(""),
  REDIS_CLUSTER_USERNAME: z.string().default(""),
  REDIS_CLUSTER_PASSWORD: z.string().default(""),
  REDIS_CLUSTER_NAT_MAP: z
    .string()
    .regex(/^([^\s,:=]+:\d+=[^\s,:=]+:\d+(,[^\s,:=]+:\d+=[^\s,:=]+:\d+)*)?$/, "REDIS_CLUSTER_NAT_MAP must be host:port=host:port pairs, comma-separated")
    .default(""),
  REDIS_CLUSTER_DNS_LOOKUP: z.enum(["system", "passthrough"]).default("system"),
  SHOPIFY_APP_URL: z.string().url(),
  SHOPIFY_API_KEY: z.string().min(1),
  SHOPIFY_API_SECRET: z.string().min(1),
  SCOPES: z.string().default("read_own_subscription_contracts,write_own_subscription_contracts,read_customers,read_products,write_products"),
  // Keys every credential hash, customer session and signed cursor/URL. Rotating it
  // invalidates every API key, every customer session and every signed download URL.
  SERVICE_SECRET: secret("SERVICE_SECRET"),
  // AES-256-GCM key (64 hex chars) for secrets that must be recoverable: Shopify access tokens,
  // webhook signing secrets (app/infra/secret-box.server.ts). During a rotation the old keys go in
  // ENCRYPTION_KEYS_PREVIOUS (comma-separated) until `npm run cli -- sessions reseal` has run.
  ENCRYPTION_KEY: z.string().regex(/^[0-9a-f]{64}$/i, "ENCRYPTION_KEY must be 64 hex characters (openssl rand -hex 32)"),
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .regex(/^([0-9a-f]{64}(,[0-9a-f]{64})*)?$/i, "ENCRYPTION_KEYS_PREVIOUS must be comma-separated 64-hex-character keys")
    .default(""),
  // When set, every request to *.myshopify.com / shopify.com is routed to the platform simulator.
  SHOPIFY_SIMULATOR_URL: z.string().url().optional(),
  SIMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(3100),
  SIMULATOR_STATE_FILE: z.string().default(".data/simulator.json"),
  EXPORTS_DIR: z.string().default(".data/exports"),
  // Export jobs (docs/decisions/057-export-jobs.md): the largest file rendered (/docs#tag/Admin-API:-Exports; 128 MB,
  // here 128 MiB; tests lower it), and rows per keyset page of the subscriptions dataset.
  EXPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(128 * 1024 * 1024),
  EXPORT_PAGE_ROWS: z.coerce.number().int().min(1).max(50_000).default(5000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  // Worker processes (workers/main.ts): which queues this process serves (comma-separated;
  // empty = all), jobs at once per queue, the job lock (a dead worker's job is handed on once
  // it lapses), and how long SIGTERM waits for active jobs.
  WORKER_QUEUES: z.string().default(""),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WORKER_LOCK_MS: z.coerce.number().int().min(500).default(30_000),
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(25_000),
  /** How long an import run's lease lasts unless renewed (docs/decisions/094-import-run-lease.md). */
  IMPORT_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Root objects of a bulk read's result applied per transaction, each with its checkpoint (docs/decisions/097-bulk-reads.md). */
  BULK_READ_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  /** How long an idempotency claim holds its key before a retry may settle it (decision 035). */
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(1000).default(300_000),
  /** How often workers re-assert the job schedulers, so they come back after Redis loses its data. */
  WORKER_SCHEDULE_CHECK_MS: z.coerce.number().int().min(100).default(60_000),
  // Outbound webhooks (docs/decisions/051-054). Ranges admitted besides public addresses, for
  // receivers on a developer's machine ("127.0.0.0/8,::1/128"); refused in production.
  WEBHOOK_ALLOWED_PRIVATE_CIDRS: z.string().default(""),
  /** Per-attempt timeout (10 s, docs/decisions/052); tests lower it. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
  // Outbound delivery requests in flight at once per worker process (docs/decisions/052).
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1_000).default(64),
  /** How often the sweeper hands work Redis forgot back to the queues, and how overdue it must be. */
  WEBHOOK_SWEEP_CRON: z.string().min(9).default("* * * * *"),
  WEBHOOK_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(60_000),
  // The billing engine (docs/decisions/080): how often the scheduler looks for due contracts
  // (a BullMQ job scheduler on the billing queue), and Shopify calls at once per shop.
  BILLING_CRON: z.string().min(9).default("*/10 * * * *"),
  BILLING_SHOP_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // The most calls at once for one shop whose bucket restores fast enough to need them (a Plus
  // shop: docs/decisions/165-billing-throughput.md); never below BILLING_SHOP_CONCURRENCY.
  BILLING_SHOP_CONCURRENCY_MAX: z.coerce.number().int().min(1).max(64).default(16),
  // Customer e-mail (docs/decisions/101-104, docs/email.md). SMTP_URL: where mail is handed over
  // (pooled); the local mailbox (npm run mailbox) listens on 127.0.0.1:1025.
  SMTP_URL: z.string().url().default("smtp://127.0.0.1:1025"),
  SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(5),
  // The From address when a shop has no sending domain, and the domain of VERP return paths
  // (bounce+<row>.<signature>@MAIL_BOUNCE_DOMAIN), whose DSNs an inbound relay posts to /email/dsn.
  MAIL_FROM: z.string().email().default("notifications@mail.localhost"),
  MAIL_BOUNCE_DOMAIN: z.string().min(1).default("bounces.localhost"),
  // Mailgun's webhook signing key (POST /email/mailgun); unset = that endpoint refuses everything.
  MAILGUN_SIGNING_KEY: z.string().default(""),
  // How long a worker's claim on one message lasts; a crashed sender's row is retried after it.
  MAIL_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  // The relay's acceptance ledger, asked about a message whose sender stopped mid-send
  // (docs/decisions/133): unset = such a message is held for the merchant, never resent by itself.
  MAIL_LEDGER_URL: z.union([z.string().url(), z.literal("")]).default(""),
  // A deferral (4xx, no answer) is retried after MAIL_RETRY_BASE_MS * 2^(n-1), at most an hour;
  // after MAIL_MAX_ATTEMPTS the message is `failed`.
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(60_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(12),
  // How long a worker keeps a shop's mail settings, DKIM key and templates (0 = read them per message).
  MAIL_SHOP_CACHE_MS: z.coerce.number().int().min(0).default(5_000),
  MAIL_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  // The local mailbox's ports (npm run mailbox, npm start).
  MAILBOX_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
  MAILBOX_WEB_PORT: z.coerce.number().int().min(1).max(65535).default(1080),
  // Running at scale (docs/decisions/144-bounded-tables.md, 145-connections-pgbouncer.md).
  // Retention: rows removed per DELETE statement, and how long events and settled billing
  // history are kept (deliveries: 30 days, /docs#section/Decisions-on-open-points).
  RETENTION_BATCH_ROWS: z.coerce.number().int().min(1).max(100_000).default(5_000),
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(31).default(90),
  BILLING_HISTORY_RETENTION_DAYS: z.coerce.number().int().min(31).default(730),
  // Connections per process: Prisma's pool and the hot-path pool (app/infra/pg.server.ts).
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  HOT_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  // "true" behind PgBouncer in transaction mode: no named prepared statements.
  DATABASE_PGBOUNCER: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  // Export files and data-request reports (docs/decisions/146-object-storage.md): "local" keeps them
  // in EXPORTS_DIR; "s3" in a bucket (credentials from the AWS SDK's usual chain: AWS_ACCESS_KEY_ID,
  // AWS_SECRET_ACCESS_KEY, an instance role...). S3_ENDPOINT and S3_FORCE_PATH_STYLE for
  // S3-compatible stores (MinIO, R2, s3rver).
  EXPORT_STORAGE: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().default(""),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\/)*$/, "S3_PREFIX must be empty or folder names each ending in /")
    .default(""),
  S3_REGION: z.string().default("us-east-1"),
  S3_ENDPOINT: z.union([z.string().url(), z.literal("")]).default(""),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  S3_PART_BYTES: z.coerce
    .number()
    .int()
    .min(5 * 1024 * 1024)
    .default(8 * 1024 * 1024),
});

export type Env = z.infer<typeof EnvSchema>;

// Receivers on private addresses are for development and tests only (docs/decisions/053).
const CheckedEnvSchema = EnvSchema.superRefine((e, ctx) => {
  // Each queue is tagged {<REDIS_PREFIX>:<queue>} on a cluster (docs/decisions/162-queue-hash-tags.md):
  // braces in the prefix would make the first "}" end every queue's tag early.
  if (e.REDIS_CLUSTER_NODES && /[{}]/.test(e.REDIS_PREFIX)) {
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_PREFIX"],
      message: "must not contain { or } with REDIS_CLUSTER_NODES (every queue gets its own hash tag {<REDIS_PREFIX>:<queue>})",
    });
  }
  if (e.EXPORT_STORAGE === "s3" && !e.S3_BUCKET) ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when EXPORT_STORAGE=s3" });
  if (e.NODE_ENV === "production" && e.WEBHOOK_ALLOWED_PRIVATE_CIDRS.trim() !== "") {
    ctx.addIssue({
      code: "custom",
      path: ["WEBHOOK_ALLOWED_PRIVATE_CIDRS"],
      message: "must be empty when NODE_ENV=production (it admits private webhook receivers)",
    });
  }
});

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = CheckedEnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}\nSee README.md#configuration.`);
  }
  return result.data;
}

let cached: Env | undefined;

/** The checked environment, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
