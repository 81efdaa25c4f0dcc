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
//   2x of the API's p50 and p99. The machine's load average is printed beside the figures.
//   BENCH_PROFILE=1 first profiles one request of each kind in this process (the same surface
//   functions the web process runs): the database queries it makes, their summed time, and the
//   request's whole time, averaged over 30 sequential requests.
// Benchmarks are not tests: nothing here asserts a time.
import { createHmac } from "node:crypto";
import pg from "pg";
import { drive, fmtSeries, loadLine, pct, startWebBench, type Series } from "./simulator";

const RATE = Number(process.env.BENCH_RATE ?? 10);
// 30 s a series: a p99 of 300 samples, not the second-worst of 100 (one scheduling stall moved it 1.6x -> 2.3x).
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SHOPS = 10;
const CUSTOMERS = 10;

interface Customer {
  domain: string;
  key: string;
  /** gid://shopify/Customer/<n> */
  id: string;
  session: string;
  contracts: string[];
}

const tail = (gid: string) => gid.split("/").pop()!;

/** Shopify's app proxy query for the customer, signed now (sorted key=value, no separators, hex HMAC-SHA256). */
function signedQuery(c: Customer, secret: string): URLSearchParams {
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
  return new URLSearchParams({ ...q, signature: createHmac("sha256", secret).update(message).digest("hex") });
}

/**
 * Where a request's time goes: the queries it sends (every pg query of this process is counted
 * and timed while one request runs at a time) beside its whole time, in this process, for the
 * portal's pages and the API's list.
 */
async function profile(customers: Customer[], secret: string) {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  let queries = 0;
  let dbMs = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    queries++;
    const t = performance.now();
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (...r: unknown[]) => {
        dbMs += performance.now() - t;
        return (last as (...x: unknown[]) => unknown)(...r);
      };
      return original.apply(this, args);
    }
    const out = original.apply(this, args);
    if (out && typeof (out as Promise<unknown>).then === "function")
      void (out as Promise<unknown>).finally(() => (dbMs += performance.now() - t)).catch(() => undefined);
    return out;
  };
  const { portalRequest } = await import("../app/surfaces/portal/index.server");
  const { handleApiRequest } = await import("../app/surfaces/dispatch.server");
  const kinds: [string, (c: Customer, i: number) => Promise<Response>][] = [
    [
      "Customer API GET /subscriptions",
      (c) =>
        handleApiRequest(
          new Request("http://bench/api/customer/v1/subscriptions", { headers: { Authorization: `Bearer ${c.key}`, "X-Service-Session": c.session } }),
        ),
    ],
    [
      "portal GET /apps/subscriptions/s/<id>",
      (c, i) => portalRequest(new Request(`http://bench/portal/s/${tail(c.contracts[i % 3])}?${signedQuery(c, secret)}`), `s/${tail(c.contracts[i % 3])}`),
    ],
    ["portal GET /apps/subscriptions", (c) => portalRequest(new Request(`http://bench/portal?${signedQuery(c, secret)}`), "")],
  ];
  const N = 30;
  for (const [name, call] of kinds) {
    for (let i = 0; i < 5; i++) await (await call(customers[i], i)).text(); // warm-up
    queries = 0;
    dbMs = 0;
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const res = await call(customers[i % customers.length], i);
      await res.text();
      if (!res.ok) throw new Error(`${name}: ${res.status}`);
    }
    const total = performance.now() - t0;
    console.log(
      `profile ${name.padEnd(38)} ${(queries / N).toFixed(1)} queries, ${(dbMs / N).toFixed(1)} ms in them, ${(total / N).toFixed(1)} ms per request`,
    );
  }
  proto.query = original;
}

async function main() {
  const bench = await startWebBench({
    name: "portal",
    webPort: Number(process.env.BENCH_WEB_PORT ?? 3392),
    simPort: Number(process.env.BENCH_SIMULATOR_PORT ?? 3393),
  });
  const { prisma, config } = bench;
  const { createKey } = await import("../tests/support/fixtures");
  const { issueCustomerSession } = await import("../app/domain/customer/session.server");

  console.log(`seeding ${SHOPS} shops × ${CUSTOMERS} customers × 3 contracts ...`);
  const customers: Customer[] = [];
  for (let s = 0; s < SHOPS; s++) {
    const { domain, shopId, customerIds } = await bench.seedShop(s, CUSTOMERS);
    const { key, id: keyId } = await createKey({ shopId, name: "bench", kind: "PUBLISHABLE" });
    for (const id of customerIds) {
      const owned = await prisma.contract.findMany({ where: { shopId, customerGid: id }, select: { contractGid: true } });
      // The same session POST /session would issue (its platform query is bench:customer's subject).
      const session = issueCustomerSession({ shopId, customerId: id, keyId }).token;
      customers.push({ domain, key, id, session, contracts: owned.map((o) => o.contractGid) });
    }
  }

  if (process.env.BENCH_PROFILE === "1") await profile(customers, config.SHOPIFY_API_SECRET);

  console.log("starting the web process (build/index.js) ...");
  const webUrl = await bench.startWeb();
  const pick = (i: number) => customers[i % customers.length];
  const proxied = (c: Customer, sub: string) => `${webUrl}/portal${sub}?${signedQuery(c, config.SHOPIFY_API_SECRET)}`;
  const api = async (i: number) => {
    const c = pick(i);
    const res = await fetch(`${webUrl}/api/customer/v1/subscriptions`, { headers: { Authorization: `Bearer ${c.key}`, "X-Service-Session": c.session } });
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
    console.log(`portal bench: ${RATE}/s for ${SECONDS} s per series, open loop, ${customers.length} customers over ${SHOPS} shops; before: ${loadLine()}`);
    // The baseline and the subscription page alternate in short halves, so both meet the same
    // machine: on a shared machine the load moves between series run one after the other.
    const halves = 2;
    const merged = (a: Series, b: Series): Series => ({ name: a.name, latencies: [...a.latencies, ...b.latencies], errors: a.errors + b.errors });
    let baseline: Series = { name: "Customer API GET /subscriptions", latencies: [], errors: 0 };
    let pageSeries: Series = { name: "portal GET /apps/subscriptions/s/<id>", latencies: [], errors: 0 };
    for (let h = 0; h < halves; h++) {
      baseline = merged(baseline, await drive(baseline.name, RATE, SECONDS / halves, api));
      pageSeries = merged(pageSeries, await drive(pageSeries.name, RATE, SECONDS / halves, page));
    }
    const listSeries = await drive("portal GET /apps/subscriptions", RATE, SECONDS, list);
    for (const s of [baseline, pageSeries, listSeries]) console.log(fmtSeries(s));
    const ratio = (s: Series, p: number) => (pct(s.latencies, p) / pct(baseline.latencies, p)).toFixed(2);
    console.log(`subscription page vs the API (baseline): p50 ${ratio(pageSeries, 50)}x, p99 ${ratio(pageSeries, 99)}x (target: within 2x)`);
    console.log(`list page vs the API (baseline): p50 ${ratio(listSeries, 50)}x, p99 ${ratio(listSeries, 99)}x`);
    console.log(`after: ${loadLine()}`);
  } finally {
    await bench.close();
  }
}

await main();
process.exit(0);
