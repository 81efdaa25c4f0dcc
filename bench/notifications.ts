// npm run bench:notifications: renewal reminders through the whole mail pipeline (outbox rows,
// `mail` queue jobs, the worker's claim, render, SMTP, the `sent` record) into the local catcher,
// beside a bare pooled nodemailer loop sending the same rendered message to the same catcher in
// the same run (docs/decisions/101-mail-outbox.md).
//
//   1. Database subscriptions_bench_mail (created and migrated when missing), one shop; the
//      catcher is the project's mailbox in count-only mode, a process of its own.
//   2. Baseline: BENCH_N messages through one pooled nodemailer transport (SMTP_MAX_CONNECTIONS
//      connections) with as many sends in flight as the worker runs jobs: messages/s.
//   3. Pipeline: BENCH_N outbox rows written in batches (one INSERT per 5,000 rows: the rows a
//      billing run writes in its transactions, without the rest of that transaction), one `mail`
//      job per row added, then one worker process (the production bundle, mail queue only)
//      drains them: messages/s from the first job added to the last `sent` record, and the
//      worker's peak RSS. Every row must end `sent` and the catcher must count exactly N.
// Benchmarks are not tests: nothing here asserts a time. BENCH_N=5000 for a quick run.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";
import { spawnBundledWorker } from "./worker";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_mail";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const N = Number(process.env.BENCH_N ?? 100_000);
const SMTP_PORT = Number(process.env.BENCH_SMTP_PORT ?? 2525);
const WEB_PORT = Number(process.env.BENCH_MAILBOX_WEB_PORT ?? 2580);
const SHOP_DOMAIN = "bench-mail.myshopify.com";

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.REDIS_PREFIX ??= "bench-mail";
process.env.LOG_LEVEL ??= "error";
process.env.SMTP_URL = `smtp://127.0.0.1:${SMTP_PORT}`;
applyLocalDefaults(process.env);

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function peakRss(child: ChildProcess): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]));
    } catch {
      // gone
    }
  }, 200);
  return () => (clearInterval(timer), peak);
}

async function count(): Promise<number> {
  return ((await (await fetch(`http://127.0.0.1:${WEB_PORT}/api/count`)).json()) as { count: number }).count;
}

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  const { prisma } = await import("../app/db.server");
  const { env } = await import("../app/env.server");
  const { closeQueues, enqueueBulk, QUEUES } = await import("../app/infra/queues.server");
  const { createRedis } = await import("../app/infra/redis.server");
  const { mailJobId } = await import("../app/domain/notifications/outbox.server");
  const { renderMessage } = await import("../app/domain/notifications/render.server");
  const { messageKind, SAMPLE_VARIABLES } = await import("../app/domain/notifications/catalogue");
  const nodemailer = (await import("nodemailer")).default;

  const redis = createRedis("queue");
  for (let cursor = "0"; ;) {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${env().REDIS_PREFIX}:*`, "COUNT", 1000);
    if (keys.length) await redis.unlink(...keys);
    if ((cursor = next) === "0") break;
  }
  redis.disconnect();
  await prisma.shop.deleteMany({ where: { domain: SHOP_DOMAIN } });
  await prisma.$executeRawUnsafe("VACUUM (FULL, ANALYZE) notification_log");
  const shop = await prisma.shop.create({ data: { domain: SHOP_DOMAIN, appPlan: "PRO", billingPlan: "PRO" } });

  const catcher = spawn(process.execPath, ["--import", "tsx", "mailbox/main.ts"], {
    env: { ...process.env, MAILBOX_SMTP_PORT: String(SMTP_PORT), MAILBOX_WEB_PORT: String(WEB_PORT), MAILBOX_COUNT_ONLY: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  process.once("exit", () => catcher.kill("SIGTERM")); // also when the run fails half-way
  await new Promise<void>((resolve) => catcher.stdout!.on("data", (c: Buffer) => c.toString().includes("mailbox ready") && resolve()));
  const inFlight = Math.max(env().WORKER_CONCURRENCY, env().SMTP_MAX_CONNECTIONS * 8);
  console.log(
    `N=${fmt(N)}; ${env().SMTP_MAX_CONNECTIONS} pooled SMTP connections, ${inFlight} sends in flight; load average at start ${loadavg()[0].toFixed(1)}`,
  );

  // ---- baseline: the same rendered message, a bare pooled nodemailer loop --------------------
  const kind = messageKind("renewal_reminder")!;
  const rendered = renderMessage(kind, SAMPLE_VARIABLES, "https://example.com/unsubscribe");
  const transport = nodemailer.createTransport({ url: env().SMTP_URL, pool: true, maxConnections: env().SMTP_MAX_CONNECTIONS, maxMessages: 1000 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < N; i = next++) {
        await transport.sendMail({ from: env().MAIL_FROM, to: `bench-${i}@example.test`, subject: rendered.subject, text: rendered.text, html: rendered.html });
      }
    }),
  );
  const baseS = (performance.now() - t0) / 1000;
  transport.close();
  const baseRate = N / baseS;
  console.log(`bare pooled nodemailer loop: ${fmt(N)} messages in ${baseS.toFixed(1)} s = ${fmt(baseRate)} msgs/s (catcher counted ${fmt(await count())})`);

  // ---- the pipeline ---------------------------------------------------------------------------
  const t1 = performance.now();
  const BATCH = 5000;
  const payload = JSON.stringify(SAMPLE_VARIABLES);
  for (let i = 0; i < N; i += BATCH) {
    await prisma.$executeRaw`
      INSERT INTO notification_log (id, shop_id, customer_gid, contract_gid, event, category, status, title, idempotency_key, payload, send_after, recipient, updated_at)
      SELECT 'nbench' || g, ${shop.id}, 'gid://shopify/Customer/' || g, 'gid://shopify/SubscriptionContract/' || g, 'renewal_reminder', 'reminders', 'queued',
             'Renewal reminder', 'renewal_reminder:gid://shopify/SubscriptionContract/' || g || ':2031-03-14', ${payload}::jsonb, now(), 'bench-' || g || '@example.test', now()
      FROM generate_series(${i}::int, ${Math.min(N, i + BATCH) - 1}::int) g`;
  }
  const outboxS = (performance.now() - t1) / 1000;
  const before = await count();
  const worker = spawnBundledWorker({ ...process.env, NODE_ENV: "production", WORKER_QUEUES: "mail" });
  process.once("exit", () => worker.kill("SIGTERM"));
  const rss = peakRss(worker);
  await new Promise<void>((resolve) => worker.stdout!.on("data", (c: Buffer) => c.toString().includes("workers ready") && resolve()));
  const t2 = performance.now();
  for (let i = 0; i < N; i += 1000) {
    const ids = Array.from({ length: Math.min(N, i + 1000) - i }, (_, k) => `nbench${i + k}`);
    await enqueueBulk(
      QUEUES.mail,
      ids.map((rowId) => ({ name: "send" as const, data: { rowId }, opts: { jobId: mailJobId(rowId, 0) } })),
    );
  }
  const enqueueS = (performance.now() - t2) / 1000;
  for (;;) {
    const left = await prisma.notificationLogEntry.count({ where: { shopId: shop.id, status: { in: ["queued", "deferred"] } } });
    if (left === 0) break;
    await sleep(250);
  }
  const pipeS = (performance.now() - t2) / 1000;
  const peakKb = rss();
  const sent = await prisma.notificationLogEntry.count({ where: { shopId: shop.id, status: "sent" } });
  const got = (await count()) - before;
  const rate = N / pipeS;
  console.log(`outbox: ${fmt(N)} rows written in ${outboxS.toFixed(1)} s (${fmt(N / outboxS)} rows/s)`);
  console.log(
    `pipeline (queue, claim, render, SMTP, sent record; one worker process): ${fmt(N)} messages in ${pipeS.toFixed(1)} s = ${fmt(rate)} msgs/s ` +
      `(jobs added in ${enqueueS.toFixed(1)} s of it); ${fmt(sent)} rows sent, catcher counted ${fmt(got)}`,
  );
  console.log(`ratio to the bare loop: ${(rate / baseRate).toFixed(2)}x (target >= 0.5x); worker peak RSS ${fmt(peakKb / 1024)} MB`);
  if (sent !== N || got !== N) console.log(`WARNING: expected ${N} sent and caught, got ${sent} sent and ${got} caught`);

  worker.kill("SIGTERM");
  catcher.kill("SIGTERM");
  await closeQueues();
  await prisma.$disconnect();
}

await main();
process.exit(0);
