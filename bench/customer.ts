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
import { drive, fmtSeries, loadLine, pct, startWebBench } from "./simulator";

const RATE = Number(process.env.BENCH_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SHOPS = 10;
const CUSTOMERS = 20;

interface Target {
  domain: string;
  key: string;
  tokens: string[];
}

async function main() {
  const bench = await startWebBench({
    name: "customer",
    webPort: Number(process.env.BENCH_WEB_PORT ?? 3390),
    simPort: Number(process.env.BENCH_SIMULATOR_PORT ?? 3391),
  });
  const { control } = bench;
  const { createKey } = await import("../tests/support/fixtures");
  const { customerForAccessToken } = await import("../app/domain/customer/session.server");

  console.log(`seeding ${SHOPS} shops × ${CUSTOMERS} customers × 3 contracts ...`);
  const targets: Target[] = [];
  for (let s = 0; s < SHOPS; s++) {
    const tokens: string[] = [];
    const { domain, shopId } = await bench.seedShop(s, CUSTOMERS, async (domain, customerId) => {
      const minted = await control.call<{ accessToken: string }>("POST", `${control.shop(domain)}/customer-access-tokens`, { customerId, ttlSeconds: 86_400 });
      tokens.push(minted.accessToken);
    });
    const { key } = await createKey({ shopId, name: "bench", kind: "PUBLISHABLE" });
    targets.push({ domain, key, tokens });
  }

  console.log("starting the web process (build/index.js) ...");
  const webUrl = await bench.startWeb();
  const pick = (i: number) => {
    const t = targets[i % targets.length];
    return { ...t, token: t.tokens[Math.floor(i / targets.length) % t.tokens.length] };
  };
  const session = async (i: number): Promise<string | null> => {
    const t = pick(i);
    const res = await fetch(`${webUrl}/api/customer/v1/session`, {
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

    console.log(`customer bench: ${RATE}/s for ${SECONDS} s per series, open loop, spread over ${SHOPS} shops; before: ${loadLine()}`);
    const platform = await drive("platform: Customer Account query", RATE, SECONDS, async (i) => {
      const t = pick(i);
      return (await customerForAccessToken(t.domain, t.token)) !== null;
    });
    const sessions = await drive("POST /session", RATE, SECONDS, async (i) => (await session(i)) !== null);
    const pairs = await drive("POST /session + GET /subscriptions", RATE, SECONDS, async (i) => {
      const token = await session(i);
      if (!token) return false;
      const res = await fetch(`${webUrl}/api/customer/v1/subscriptions`, { headers: { Authorization: `Bearer ${pick(i).key}`, "X-Service-Session": token } });
      const body = (await res.json()) as { subscriptions?: unknown[] };
      return res.ok && body.subscriptions?.length === 3;
    });
    for (const s of [platform, sessions, pairs]) console.log(fmtSeries(s));
    console.log(
      `service share of a sign-in: p50 +${(pct(sessions.latencies, 50) - pct(platform.latencies, 50)).toFixed(1)} ms, p99 +${(pct(sessions.latencies, 99) - pct(platform.latencies, 99)).toFixed(1)} ms over the platform call (baseline)`,
    );
    console.log(`after: ${loadLine()}`);
  } finally {
    await bench.close();
  }
}

await main();
process.exit(0);
