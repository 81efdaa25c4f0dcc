// npm run bench:kernel — kernel overhead at a fixed 500 requests/second.
// Two servers, same run, same JSON answer, each in its own child process; the load generator
// (this process) drives each for ~10 s over keep-alive connections, open-loop: latency is
// measured from each request's scheduled send time, so a stall is not hidden.
//   bare:   node:http answering {"ok":true}
//   kernel: node:http → Request → the real kernel (createSurface) with the Admin surface config:
//           key auth (one Postgres round trip), plan gate, EVALSHA token bucket, routing, scope
//           check, JSON. The bench bucket is the production Lua script with a capacity large
//           enough never to refuse (so every request is a full admitted path, none short-circuits).
// Needs PostgreSQL and Redis (REDIS_URL); local defaults apply. Its database,
// subscriptions_bench_kernel (BENCH_DB), is created and migrated when missing (bench/database.ts),
// so the bench works right after `npm ci` and never touches the dev or test databases.
import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_kernel";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
applyLocalDefaults(process.env);
process.env.LOG_LEVEL ??= "warn";

const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;

async function serveBare(): Promise<http.Server> {
  const body = JSON.stringify({ ok: true });
  return http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
}

async function serveKernel(): Promise<http.Server> {
  const { z } = await import("zod");
  const { createSurface } = await import("../app/http/kernel.server");
  const { defineRoute } = await import("../app/http/route");
  const { ADMIN_SURFACE } = await import("../app/surfaces/config");
  const surface = createSurface({ ...ADMIN_SURFACE, bucket: { name: "bench", perMinute: 6_000_000, burst: 1_000_000 } }, [
    defineRoute({
      method: "GET",
      path: "/noop/:id",
      scopes: ["read:plans"],
      params: z.object({ id: z.string() }),
      response: z.object({ ok: z.boolean() }),
      summary: "bench no-op",
      handler: () => ({ body: { ok: true } }),
    }),
  ]);
  return http.createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (req as unknown as ReadableStream) : undefined,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    if (!hasBody) req.resume();
    const response = await surface.handle(request);
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    const buf = Buffer.from(await response.arrayBuffer());
    out["content-length"] = String(buf.length);
    res.writeHead(response.status, out);
    res.end(buf);
  });
}

async function child(kind: "bare" | "kernel") {
  const server = kind === "bare" ? await serveBare() : await serveKernel();
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const addr = server.address() as { port: number };
    process.send?.({ port: addr.port });
  });
}

async function setupPrincipal(): Promise<{ token: string; cleanup: () => Promise<void> }> {
  const { prisma } = await import("../app/db.server");
  const { createShop, createKey } = await import("../tests/support/fixtures");
  const domain = `bench-${randomUUID()}.myshopify.com`;
  const shop = await createShop({ domain, accessToken: "bench" });
  const { key } = await createKey({ shopId: shop.id, name: "bench", scopes: ["read:plans"] });
  return {
    token: key,
    cleanup: async () => {
      await prisma.session.deleteMany({ where: { shop: domain } });
      await prisma.shop.delete({ where: { id: shop.id } });
      await prisma.$disconnect();
    },
  };
}

function start(kind: "bare" | "kernel"): Promise<{ proc: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ["--serve", kind], { execArgv: process.execArgv, env: process.env });
    proc.once("message", (m) => resolve({ proc, port: (m as { port: number }).port }));
    proc.once("error", reject);
    proc.once("exit", (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
}

interface Result {
  name: string;
  sent: number;
  ok: number;
  errors: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

async function drive(name: string, port: number, path: string, headers: Record<string, string>): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const once = (scheduled: number, record: boolean, sink: number[], counters: { ok: number; errors: number }) =>
    new Promise<void>((resolve) => {
      const r = http.request({ host: "127.0.0.1", port, path, method: "GET", headers, agent }, (res) => {
        res.resume();
        res.on("end", () => {
          if (record) {
            sink.push(performance.now() - scheduled);
            if (res.statusCode === 200) counters.ok++;
            else counters.errors++;
          }
          resolve();
        });
      });
      r.on("error", () => {
        if (record) counters.errors++;
        resolve();
      });
      r.end();
    });

  const run = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    const counters = { ok: 0, errors: 0 };
    const inflight: Promise<void>[] = [];
    const t0 = performance.now();
    const total = Math.round(RATE * seconds);
    let sent = 0;
    await new Promise<void>((done) => {
      const tick = () => {
        const now = performance.now();
        const due = Math.min(total, Math.floor(((now - t0) / 1000) * RATE) + 1);
        while (sent < due) {
          const scheduled = t0 + (sent * 1000) / RATE;
          inflight.push(once(scheduled, record, latencies, counters));
          sent++;
        }
        if (sent >= total) done();
        else setTimeout(tick, 1);
      };
      tick();
    });
    await Promise.all(inflight);
    const elapsed = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
    return {
      name,
      sent,
      ok: counters.ok,
      errors: counters.errors,
      rps: counters.ok / elapsed,
      p50: q(0.5),
      p90: q(0.9),
      p99: q(0.99),
      max: latencies[latencies.length - 1] ?? NaN,
    };
  };

  await run(WARMUP_SECONDS, false);
  const result = await run(SECONDS, true);
  agent.destroy();
  return result;
}

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  const { token, cleanup } = await setupPrincipal();
  const bare = await start("bare");
  const kernel = await start("kernel");
  try {
    console.log(`kernel bench: ${RATE} req/s for ${SECONDS} s each (after ${WARMUP_SECONDS} s warm-up), keep-alive, open loop`);
    const b = await drive("bare node:http", bare.port, "/api/admin/v1/noop/x", {});
    const k = await drive("kernel (auth+plan+EVALSHA+route+scope)", kernel.port, `/api/admin/v1/noop/${encodeURIComponent("gid://shopify/X/1")}`, {
      Authorization: `Bearer ${token}`,
    });
    const fmt = (r: Result) =>
      `${r.name.padEnd(40)} ${r.rps.toFixed(1).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p90 ${r.p90.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  max ${r.max.toFixed(1).padStart(6)} ms  ok ${r.ok}/${r.sent}${r.errors ? `  errors ${r.errors}` : ""}`;
    console.log(fmt(b));
    console.log(fmt(k));
    const diff = k.p99 - b.p99;
    console.log(
      `p99 overhead: ${diff.toFixed(2)} ms (kernel/bare p99 ratio ${(k.p99 / b.p99).toFixed(2)}x; rps ratio ${(k.rps / b.rps).toFixed(3)}) — target < 2 ms: ${diff < 2 ? "PASS" : "MISS"}`,
    );
    if (k.errors) console.log("note: kernel answered non-200s; check DATABASE_URL/REDIS_URL");
  } finally {
    bare.proc.kill();
    kernel.proc.kill();
    await cleanup();
  }
}

const i = process.argv.indexOf("--serve");
if (i >= 0) void child(process.argv[i + 1] as "bare" | "kernel");
else
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
