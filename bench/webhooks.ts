// npm run bench:webhooks: outbound webhook fan-out through the real pipeline, beside a bare
// undici loop posting the same signed bodies with the same concurrency, in the same run.
//
//   1. Database subscriptions_bench_webhooks (created and migrated when missing; its webhook
//      tables vacuumed, so no run measures the dead rows of the runs before it), one PRO shop
//      with ten endpoints, each a loopback HTTPS receiver in this process (self-signed
//      certificate from openssl; the workers trust it through NODE_EXTRA_CA_CERTS).
//   2. Baseline: BENCH_EVENTS x 10 POSTs with undici, signed bodies built the way the worker
//      builds them, BENCH_CONCURRENCY at once: deliveries/s.
//   3. Fan-out: BENCH_EVENTS events published with publishEventNow (event + ten delivery rows in
//      one statement, then queued) while no worker runs; then BENCH_WORKERS worker processes
//      (workers/main.ts compiled as production runs it, bench/worker.ts; webhooks queue only; a job is one event's ten first attempts) drain the
//      backlog with at most BENCH_CONCURRENCY requests in flight in all (WEBHOOK_MAX_IN_FLIGHT):
//      deliveries/s beside the bare loop.
//   4. Latency: BENCH_LATENCY_EVENTS events published one by one to the idle workers: p50/p99
//      publish-to-delivery; the workers' peak RSS over both phases.
// Target: at least half the bare loop's rate. Benchmarks are not tests: nothing here
// asserts a time.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";
import { spawnBundledWorker } from "./worker";
// The receivers' certificate is the tests' (one openssl recipe; the module has no app imports).
import { makeCert } from "../tests/support/https-receiver";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_webhooks";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const ENDPOINTS = 10;
// One worker process running all BENCH_CONCURRENCY attempts: its concurrent attempts share their
// statements (docs/decisions/077), and on this two-core machine a second process only adds
// scheduling; BENCH_WORKERS=2 measures two processes with half the concurrency each.
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 60);
const SHOP_DOMAIN = "bench-webhooks.myshopify.com";
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 200);

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.REDIS_PREFIX ??= "bench-webhooks";
process.env.LOG_LEVEL ??= "error";
process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
applyLocalDefaults(process.env);

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const load = () => loadavg()[0].toFixed(1);
/** CPU time (user + system) a process has used so far, in µs, from /proc/<pid>/stat. */
const TICK_US = 1_000_000 / 100; // USER_HZ is 100 on Linux
function cpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime (fields 14 and 15 of stat)
}
const perDelivery = (us: number, n: number) => `${fmt(us / n)} µs CPU per delivery`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Ten receivers; `onEvent` sees each request's event id and which receiver got it. */
async function startReceivers(
  cert: { cert: string; key: string },
  onEvent: (eventId: string, receiver: number) => void,
): Promise<{ urls: string[]; close(): Promise<void> }> {
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const server = createServer({ cert: cert.cert, key: cert.key, keepAliveTimeout: 60_000 }, (req, res) => {
      const id = String(req.headers["x-service-event-id"] ?? "");
      req.resume();
      req.on("end", () => {
        onEvent(id, i);
        res.writeHead(200, { "content-length": "2" });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    urls.push(`https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${i}`);
  }
  return { urls, close: () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => undefined) };
}

async function deleteRedisPrefix(prefix: string): Promise<void> {
  const { createRedis } = await import("../app/infra/redis.server");
  const redis = createRedis("queue");
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== "0");
  redis.disconnect();
}

function peakRss(children: ChildProcess[]): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    for (const c of children) {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${c.pid}/status`, "utf8"));
        if (m) peak = Math.max(peak, Number(m[1]));
      } catch {
        // gone
      }
    }
  }, 200);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  const { prisma } = await import("../app/db.server");
  const { closeQueues } = await import("../app/infra/queues.server");
  const { createEndpoint } = await import("../app/domain/outbound-webhooks/endpoints.server");
  const { publishEventNow, eventIdFor } = await import("../app/domain/outbound-webhooks/publish.server");
  const { deliveryBody } = await import("../app/domain/outbound-webhooks/deliver.server");
  const { signatureHeader } = await import("../app/domain/outbound-webhooks/signature");
  const { webhookJobConcurrency } = await import("../app/domain/outbound-webhooks/jobs.server");
  const { createShop } = await import("../tests/support/fixtures");

  await prisma.shop.deleteMany({ where: { domain: SHOP_DOMAIN } });
  // Every run writes and deletes 100,000 deliveries and attempts. Without a vacuum between runs
  // (this machine's PostgreSQL runs with autovacuum off) each run starts on the dead rows and
  // bloated indexes of all the runs before it: measured, 1.6 million dead deliveries and 800 MB
  // after a dozen runs, and the fan-out 20 % slower. Each run starts from compact tables.
  await prisma.$executeRawUnsafe("VACUUM (FULL, ANALYZE) webhook_attempts, webhook_deliveries, events, webhook_endpoints");
  const shop = await createShop({ domain: SHOP_DOMAIN, billingPlan: "PRO", offlineSession: false });
  const cert = makeCert();

  // ---- baseline: bare undici, same bodies, same signing, same concurrency ----------------------
  let baselineCount = 0;
  const baselineReceivers = await startReceivers(cert, () => baselineCount++);
  const agent = new Agent({ connect: { ca: cert.cert }, keepAliveTimeout: 30_000 });
  const secret = `whsec_${randomUUID()}`;
  const total = EVENTS * ENDPOINTS;
  let next = 0;
  console.log(`load average at start: ${load()}`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) {
        const body = deliveryBody(
          {
            id: `evt_bench${i}`,
            type: "subscription.paused",
            createdAt: new Date(),
            test: false,
            data: {
              contract_id: `gid://shopify/SubscriptionContract/${i}`,
              customer_id: "gid://shopify/Customer/1",
              previous_status: "ACTIVE",
              new_status: "PAUSED",
            },
          },
          SHOP_DOMAIN,
        );
        const res = await request(baselineReceivers.urls[i % ENDPOINTS], {
          method: "POST",
          dispatcher: agent,
          body,
          headers: {
            "content-type": "application/json; charset=utf-8",
            "x-service-signature": signatureHeader(secret, Math.floor(Date.now() / 1000), body),
            "x-service-event-id": `evt_bench${i}`,
          },
        });
        await res.body.dump();
      }
    }),
  );
  const baselineS = (performance.now() - t0) / 1000;
  const baselineCpu = process.cpuUsage(cpu0);
  await agent.close();
  await baselineReceivers.close();
  const baselineRate = baselineCount / baselineS;
  console.log(
    `\nbare undici loop (${CONCURRENCY} at once): ${fmt(baselineCount)} POSTs in ${baselineS.toFixed(1)} s = ${fmt(baselineRate)} deliveries/s; ` +
      `${perDelivery(baselineCpu.user + baselineCpu.system, baselineCount)} (client and receivers, one process)`,
  );

  // ---- the pipeline --------------------------------------------------------------------------
  const published = new Map<string, number>();
  const latencies: number[] = [];
  const seen = new Set<string>();
  let delivered = 0;
  let duplicates = 0;
  let lastDelivery = 0;
  const receivers = await startReceivers(cert, (eventId, receiver) => {
    const at = performance.now();
    const key = `${eventId}|${receiver}`;
    if (seen.has(key)) {
      duplicates++; // at-least-once: a retry after a timeout the receiver did answer
      return;
    }
    seen.add(key);
    const p = published.get(eventId);
    if (p !== undefined) latencies.push(at - p);
    delivered++;
    lastDelivery = at;
  });
  for (const url of receivers.urls) await createEndpoint({ shopId: shop.id, url, events: ["subscription.paused"] });
  await deleteRedisPrefix(process.env.REDIS_PREFIX!);

  const publishOne = async (n: number) => {
    const sourceKey = `bench:${randomUUID()}`;
    published.set(eventIdFor(sourceKey), performance.now()); // before: a delivery may arrive before publish returns
    await publishEventNow({
      shopId: shop.id,
      type: "subscription.paused",
      sourceKey,
      data: {
        contract_id: `gid://shopify/SubscriptionContract/${n}`,
        customer_id: "gid://shopify/Customer/1",
        previous_status: "ACTIVE",
        new_status: "PAUSED",
      },
    });
  };

  // Phase 1, the fan-out: EVENTS events published with no worker running (a backlog of
  // EVENTS x 10 deliveries), then the workers start and drain it. Deliveries/s here is the
  // figure compared with the bare loop.
  // The tables start empty (the VACUUM FULL above), and plans made on an empty table are
  // sequential scans: the foreign-key checks of every delivery row, planned once per connection,
  // then scan the whole events table, and publishing slows down as it grows (measured: 4.3 ms of
  // PostgreSQL CPU per event instead of 0.9). With autovacuum on, its ANALYZE replans them after a
  // few hundred rows; this machine runs without it, so the bench runs that ANALYZE itself.
  const publishStart = performance.now();
  let count = 0;
  const PUBLISHERS = 8;
  const publishUpTo = (n: number) =>
    Promise.all(
      Array.from({ length: PUBLISHERS }, async () => {
        while (count < n) await publishOne(++count);
      }),
    );
  await publishUpTo(Math.min(EVENTS, 200));
  await prisma.$executeRawUnsafe("ANALYZE events, webhook_deliveries");
  await publishUpTo(EVENTS);
  const publishedS = (performance.now() - publishStart) / 1000;
  console.log(
    `published ${fmt(EVENTS)} events (${fmt(total)} deliveries written and queued) in ${publishedS.toFixed(1)} s = ${fmt(EVENTS / publishedS)} events/s (8 publishers)`,
  );

  // WEBHOOK_MAX_IN_FLIGHT holds the requests in flight to BENCH_CONCURRENCY in all, as in the
  // bare loop; the worker runs the jobs that keeps busy (webhookJobConcurrency, as in production).
  const inFlight = Math.max(1, Math.round(CONCURRENCY / WORKERS));
  const perWorker = webhookJobConcurrency(inFlight, 1);
  const workers = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const child = spawnBundledWorker({
        ...process.env,
        WORKER_QUEUES: "webhooks",
        WORKER_CONCURRENCY: "1",
        WEBHOOK_MAX_IN_FLIGHT: String(inFlight),
        NODE_EXTRA_CA_CERTS: cert.certPath,
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (c: Buffer) => c.toString().includes("workers ready") && resolve());
        child.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
      });
      return child;
    }),
  );
  const rss = peakRss(workers);
  const workersCpu = () => workers.reduce((us, w) => us + cpuUs(w.pid!), 0);
  const drainCpu0 = workersCpu();
  const drainStart = performance.now();
  const deadline = Date.now() + 30 * 60_000;
  while (delivered < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const seconds = (lastDelivery - drainStart) / 1000;
  const rate = delivered / seconds;
  const drainCpu = workersCpu() - drainCpu0;
  console.log(
    `fan-out (${WORKERS} workers x ${perWorker} jobs of ${ENDPOINTS} deliveries, at most ${inFlight} requests in flight each): ${fmt(delivered)} deliveries in ${seconds.toFixed(1)} s = ${fmt(rate)} deliveries/s, ` +
      `${(rate / baselineRate).toFixed(2)}x the bare loop (target >= 0.5x); ${perDelivery(drainCpu, delivered)} (workers); load average ${load()}`,
  );

  // Phase 2, latency: LATENCY_EVENTS events published one at a time to idle workers; the time
  // from publish to each of its ten arrivals.
  latencies.length = 0;
  const before = delivered;
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    await publishOne(EVENTS + i + 1);
    await new Promise((r) => setTimeout(r, 20));
  }
  while (delivered < before + LATENCY_EVENTS * ENDPOINTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const peakKb = rss();
  const sorted = latencies.sort((a, b) => a - b);
  await new Promise((r) => setTimeout(r, 1000)); // the workers record the last answers
  const pending = await prisma.webhookDelivery.count({ where: { shopId: shop.id, status: { not: "delivered" } } });
  console.log(
    `publish-to-delivery (${LATENCY_EVENTS} events, ${fmt(latencies.length)} deliveries): p50 ${pct(sorted, 50).toFixed(0)} ms, p99 ${pct(sorted, 99).toFixed(0)} ms; ` +
      `workers' peak RSS ${(peakKb / 1024).toFixed(0)} MB; duplicates ${duplicates}; not delivered: ${pending}`,
  );

  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once("exit", r)))));
  await receivers.close();
  await prisma.shop.deleteMany({ where: { domain: SHOP_DOMAIN } });
  await closeQueues();
  await prisma.$disconnect();
}

await main();
process.exit(0);
