// npm run bench:portal — the hosted portal's pages (docs/decisions/140-hosted-portal-app-proxy.md)
// beside the Customer API's GET /subscriptions for the same customers, in the same run.
//
//   The built app (server.ts, a child process; run `npm run build` first) in front of the
//   platform simulator (in this process), on the bench database (subscriptions_bench) and Redis
//   prefix "bench". 10 PRO shops, 10 customers each with 3 contracts mirrored through the real
//   reconcile; one publishable key per shop and a Customer API session per customer.
//
//   Three open-loop series of BENCH_SECONDS (default 10) at BENCH_RATE per second (default 10),
//   latency measured from each request's scheduled time, each request for the next customer:
//     api        GET /api/customer/v1/subscriptions with the customer's session (the baseline)
//     list       GET /portal with Shopify's app proxy query, signed per request as Shopify does
//     page       GET /portal/s/<id>, the subscription page (one of the customer's contracts)
//   Both portal pages verify the signature with the Shopify library, re-check the customer
//   against the mirror and render the Liquid answer. The target: the subscription page within
//   2x of the API's p50 and p99.
// Benchmarks are not tests: nothing here asserts a time.
import { createHmac } from "node:crypto";
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
const CUSTOMERS = 10;
const WEB_PORT = Number(process.env.BENCH_WEB_PORT ?? 3392);
const SIM_PORT = Number(process.env.BENCH_SIMULATOR_PORT ?? 3393);

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

interface Customer {
  domain: string;
  key: string;
  /** gid://shopify/Customer/<n> */
  id: string;
  session: string;
  contracts: string[];
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
    stateFile: path.join(mkdtempSync(path.join(tmpdir(), "bench-portal-")), "state.json"),
    appUrl: config.SHOPIFY_APP_URL,
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
  });
  const { SimulatorControl } = await import("../simulator/control-client");
  const { prisma } = await import("../app/db.server");
  const { recordInstallation, setAppPlan } = await import("../app/domain/shop/lifecycle.server");
  const { reconcileShop } = await import("../app/domain/subscriptions/reconcile.server");
  const { createKey } = await import("../tests/support/fixtures");
  const { issueCustomerSession } = await import("../app/domain/customer/session.server");
  const control = new SimulatorControl(sim.url);

  console.log(`seeding ${SHOPS} shops × ${CUSTOMERS} customers × 3 contracts ...`);
  const run = Date.now().toString(36);
  const customers: Customer[] = [];
  for (let s = 0; s < SHOPS; s++) {
    const domain = `bench-portal-${run}-${s}.myshopify.com`;
    const installed = await control.installShop({ shop: domain });
    await recordInstallation(domain, installed.accessToken, installed.scope);
    await setAppPlan(domain, "PRO");
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain } });
    const ids: string[] = [];
    const contracts = [];
    for (let c = 0; c < CUSTOMERS; c++) {
      const customer = await control.call<{ id: string }>("POST", `${control.shop(domain)}/customers`, {});
      ids.push(customer.id);
      for (let k = 0; k < 3; k++) contracts.push({ customerId: customer.id });
    }
    await control.call("POST", `${control.shop(domain)}/contracts/bulk`, { contracts, webhooks: false });
    await reconcileShop(domain);
    const { key, id: keyId } = await createKey({ shopId: shop.id, name: "bench", kind: "PUBLISHABLE" });
    for (const id of ids) {
      const owned = await prisma.contract.findMany({ where: { shopId: shop.id, customerGid: id }, select: { contractGid: true } });
      // The same session POST /session would issue (its platform query is bench:customer's subject).
      const session = issueCustomerSession({ shopId: shop.id, customerId: id, keyId }).token;
      customers.push({ domain, key, id, session, contracts: owned.map((o) => o.contractGid) });
    }
  }

  console.log("starting the web process (build/index.js) ...");
  const web = await startWeb({ LOG_LEVEL: "error", NODE_ENV: "production" });
  const pick = (i: number) => customers[i % customers.length];
  const tail = (gid: string) => gid.split("/").pop()!;
  /** Shopify's app proxy query for the customer, signed now (sorted key=value, no separators, hex HMAC-SHA256). */
  const proxied = (c: Customer, sub: string) => {
    const q: Record<string, string> = {
      shop: c.domain,
      path_prefix: "/apps/subscriptions",
      timestamp: String(Math.floor(Date.now() / 1000)),
      logged_in_customer_id: tail(c.id),
    };
    const message = Object.keys(q)
      .sort()
      .map((k) => `${k}=${q[k]}`)
      .join("");
    const signature = createHmac("sha256", config.SHOPIFY_API_SECRET).update(message).digest("hex");
    return `${web.url}/portal${sub}?${new URLSearchParams({ ...q, signature })}`;
  };
  const api = async (i: number) => {
    const c = pick(i);
    const res = await fetch(`${web.url}/api/customer/v1/subscriptions`, { headers: { Authorization: `Bearer ${c.key}`, "X-Service-Session": c.session } });
    const body = (await res.json()) as { subscriptions?: unknown[] };
    return res.ok && body.subscriptions?.length === 3;
  };
  const list = async (i: number) => {
    const c = pick(i);
    const res = await fetch(proxied(c, ""));
    const html = await res.text();
    return res.ok && html.includes(`/s/${tail(c.contracts[0])}`);
  };
  const page = async (i: number) => {
    const c = pick(i);
    const res = await fetch(proxied(c, `/s/${tail(c.contracts[i % 3])}`));
    const html = await res.text();
    return res.ok && html.includes('data-field="status"');
  };
  try {
    // Warm-up: every path for every customer once (module caches, connection pools).
    for (let i = 0; i < customers.length; i++) {
      if (!(await api(i)) || !(await list(i)) || !(await page(i))) throw new Error(`warm-up request ${i} failed`);
    }
    console.log(`portal bench: ${RATE}/s for ${SECONDS} s per series, open loop, ${customers.length} customers over ${SHOPS} shops`);
    const baseline = await drive("Customer API GET /subscriptions", api);
    const listSeries = await drive("portal GET /apps/subscriptions", list);
    const pageSeries = await drive("portal GET /apps/subscriptions/s/<id>", page);
    for (const s of [baseline, listSeries, pageSeries]) console.log(fmt(s));
    const ratio = (s: Series, p: number) => (pct(s.latencies, p) / pct(baseline.latencies, p)).toFixed(2);
    console.log(`subscription page vs the API (baseline): p50 ${ratio(pageSeries, 50)}x, p99 ${ratio(pageSeries, 99)}x (target: within 2x)`);
    console.log(`list page vs the API (baseline): p50 ${ratio(listSeries, 50)}x, p99 ${ratio(listSeries, 99)}x`);
  } finally {
    await web.stop();
    await sim.close();
    await prisma.shop.deleteMany({ where: { domain: { startsWith: `bench-portal-${run}-` } } });
    await prisma.$disconnect();
    const { closeQueues } = await import("../app/infra/queues.server");
    await closeQueues().catch(() => undefined);
  }
}

await main();
process.exit(0);
