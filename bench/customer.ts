// npm run bench:customer — the Customer API's hot pair at a steady load, beside its platform call.
//
//   The built app (server.ts, a child process; run `npm run build` first) in front of the
//   platform simulator (in this process), on the bench database (subscriptions_bench) and Redis
//   prefix "bench". 10 PRO shops, 20 customers each with 3 contracts mirrored through the real
//   reconcile; one publishable key per shop.
//
//   Three open-loop series of BENCH_SECONDS (default 10) at BENCH_RATE per second (default 10),
//   latency measured from each request's scheduled time, so a stall is not hidden:
//     platform   the one call POST /session makes: the Customer Account API query for the
//                token's customer, through the production adapter, made directly from here
//     session    POST /session (publishable key, token spent on that query, signed claim)
//     pair       POST /session then GET /subscriptions with the new session (what a portal
//                does on load), timed as one
//   The load is spread over the shops so no request meets the 120/min bucket (each shop sees
//   well under its burst of 180 during a run).
// Benchmarks are not tests: nothing here asserts a time. The figure to read is the session's
// p50/p99 beside the platform call's: the service's own share of a sign-in.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const RATE = Number(process.env.BENCH_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SHOPS = 10;
const CUSTOMERS = 20;
const WEB_PORT = Number(process.env.BENCH_WEB_PORT ?? 3390);
const SIM_PORT = Number(process.env.BENCH_SIMULATOR_PORT ?? 3391);

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.REDIS_PREFIX ??= "bench";
process.env.LOG_LEVEL ??= "error";
process.env.PORT = String(WEB_PORT);
process.env.SIMULATOR_PORT = String(SIM_PORT);
process.env.SHOPIFY_APP_URL = `http://127.0.0.1:${WEB_PORT}`;
process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${SIM_PORT}`;
applyLocalDefaults(process.env);

/** server.ts on WEB_PORT as a child process (the built app), once /healthz answers. */
async function startWeb(envOver: Record<string, string>) {
  const proc = spawn(process.execPath, ["--import", "tsx", "server.ts"], { env: { ...process.env, ...envOver }, stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${WEB_PORT}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error("the web process did not start (is build/index.js there? npm run build)");
    await new Promise((r) => setTimeout(r, 200));
  }
  const exited = new Promise((r) => proc.once("exit", r));
  return { url, stop: async () => void (proc.kill("SIGTERM"), await exited) };
}

interface Target {
  domain: string;
  key: string;
  tokens: string[];
}

interface Series {
  name: string;
  latencies: number[];
  errors: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/** Open loop: one call every 1000/RATE ms for SECONDS; latency from the scheduled start. */
async function drive(name: string, call: (i: number) => Promise<boolean>): Promise<Series> {
  const total = RATE * SECONDS;
  const interval = 1000 / RATE;
  const t0 = performance.now() + 50;
  const latencies: number[] = [];
  let errors = 0;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = t0 + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      call(i).then(
        (ok) => {
          if (ok) latencies.push(performance.now() - scheduled);
          else errors++;
        },
        () => void errors++,
      ),
    );
  }
  await Promise.all(pending);
  return { name, latencies, errors };
}

const fmt = (s: Series) =>
  `${s.name.padEnd(34)} n=${String(s.latencies.length).padStart(4)}  p50 ${pct(s.latencies, 50).toFixed(1).padStart(6)} ms  p99 ${pct(s.latencies, 99).toFixed(1).padStart(6)} ms${s.errors ? `  errors ${s.errors}` : ""}`;

async function main() {
  await prepareBenchDatabase(process.env.DATABASE_URL!);
  const { startSimulator } = await import("../simulator/server");
  const { env } = await import("../app/env.server");
  const config = env();
  const sim = await startSimulator({
    port: SIM_PORT,
    stateFile: path.join(mkdtempSync(path.join(tmpdir(), "bench-customer-")), "state.json"),
    appUrl: config.SHOPIFY_APP_URL,
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
  });
  const { SimulatorControl } = await import("../simulator/control-client");
  const { prisma } = await import("../app/db.server");
  const { recordInstallation, setAppPlan } = await import("../app/domain/shop/lifecycle.server");
  const { reconcileShop } = await import("../app/domain/subscriptions/reconcile.server");
  const { createKey } = await import("../tests/support/fixtures");
  const { customerForAccessToken } = await import("../app/domain/customer/session.server");
  const control = new SimulatorControl(sim.url);

  console.log(`seeding ${SHOPS} shops × ${CUSTOMERS} customers × 3 contracts ...`);
  const run = Date.now().toString(36);
  const targets: Target[] = [];
  for (let s = 0; s < SHOPS; s++) {
    const domain = `bench-customer-${run}-${s}.myshopify.com`;
    const installed = await control.installShop({ shop: domain });
    await recordInstallation(domain, installed.accessToken, installed.scope);
    await setAppPlan(domain, "PRO");
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain } });
    const tokens: string[] = [];
    const contracts = [];
    for (let c = 0; c < CUSTOMERS; c++) {
      const customer = await control.call<{ id: string }>("POST", `${control.shop(domain)}/customers`, {});
      for (let k = 0; k < 3; k++) contracts.push({ customerId: customer.id });
      tokens.push(
        (await control.call<{ accessToken: string }>("POST", `${control.shop(domain)}/customer-access-tokens`, { customerId: customer.id, ttlSeconds: 86_400 }))
          .accessToken,
      );
    }
    await control.call("POST", `${control.shop(domain)}/contracts/bulk`, { contracts, webhooks: false });
    await reconcileShop(domain);
    const { key } = await createKey({ shopId: shop.id, name: "bench", kind: "PUBLISHABLE" });
    targets.push({ domain, key, tokens });
  }

  console.log("starting the web process (build/index.js) ...");
  const web = await startWeb({ LOG_LEVEL: "error", NODE_ENV: "production" });
  const pick = (i: number) => {
    const t = targets[i % targets.length];
    return { ...t, token: t.tokens[Math.floor(i / targets.length) % t.tokens.length] };
  };
  const session = async (i: number): Promise<string | null> => {
    const t = pick(i);
    const res = await fetch(`${web.url}/api/customer/v1/session`, {
      method: "POST",
      headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ customer_access_token: t.token }),
    });
    const body = (await res.json()) as { session_token?: string };
    return res.ok ? (body.session_token ?? null) : null;
  };
  try {
    // Warm-up: every path once per shop (module caches, connection pools, port caches).
    for (let i = 0; i < targets.length * 2; i++) await session(i);
    for (const t of targets) await customerForAccessToken(t.domain, t.tokens[0]);

    console.log(`customer bench: ${RATE}/s for ${SECONDS} s per series, open loop, spread over ${SHOPS} shops`);
    const platform = await drive("platform: Customer Account query", async (i) => {
      const t = pick(i);
      return (await customerForAccessToken(t.domain, t.token)) !== null;
    });
    const sessions = await drive("POST /session", async (i) => (await session(i)) !== null);
    const pairs = await drive("POST /session + GET /subscriptions", async (i) => {
      const token = await session(i);
      if (!token) return false;
      const res = await fetch(`${web.url}/api/customer/v1/subscriptions`, { headers: { Authorization: `Bearer ${pick(i).key}`, "X-Service-Session": token } });
      const body = (await res.json()) as { subscriptions?: unknown[] };
      return res.ok && body.subscriptions?.length === 3;
    });
    for (const s of [platform, sessions, pairs]) console.log(fmt(s));
    console.log(
      `service share of a sign-in: p50 +${(pct(sessions.latencies, 50) - pct(platform.latencies, 50)).toFixed(1)} ms, p99 +${(pct(sessions.latencies, 99) - pct(platform.latencies, 99)).toFixed(1)} ms over the platform call (baseline)`,
    );
  } finally {
    await web.stop();
    await sim.close();
    await prisma.shop.deleteMany({ where: { domain: { startsWith: `bench-customer-${run}-` } } });
    await prisma.$disconnect();
    const { closeQueues } = await import("../app/infra/queues.server");
    await closeQueues().catch(() => undefined);
  }
}

await main();
process.exit(0);
