// The set-up shared by the benchmarks that drive the platform simulator as its own process
// (bench/billing.ts, bench/boxes.ts): the bench's environment, the simulator with webhooks off
// (a shopify.app.toml with no subscriptions: a bench measures its job, not the mirror), its
// control routes, and due contracts seeded in bulk on it and in the bench database's mirror.
// Below them, what the benchmarks of the built web app share (bench/customer.ts, bench/portal.ts):
// the simulator in this process, PRO shops with customers mirrored through the real reconcile,
// server.ts as a child process, and the open-loop driver with its percentiles.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { applyLocalDefaults } from "../app/infra/local-env";

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
/** Contracts per simulator bulk call and per mirror INSERT. */
const BULK = 10_000;

export interface BenchSimulator {
  url: string;
  control<T>(method: string, p: string, body?: unknown): Promise<T>;
  /** Resolves once the simulator answers its health route. */
  ready(): Promise<void>;
  /** CPU time the simulator process has used so far, in ms (Linux /proc; 0 elsewhere). */
  cpuMs(): number;
  stop(): void;
}

/**
 * Points this process at the bench database `database` and a simulator on `port`, and starts that
 * simulator. Call before importing app code: the app reads its environment once.
 */
export function startBenchSimulator(database: string, port: number, name: string, opts: { persistMs?: number } = {}): BenchSimulator {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  const toml = path.join(dir, "no-webhooks.toml");
  writeFileSync(toml, '[webhooks]\napi_version = "2026-10"\n');
  process.env.DATABASE_URL = `${PG_BASE}/${process.env.BENCH_DB ?? database}`;
  process.env.REDIS_PREFIX ??= "bench";
  process.env.LOG_LEVEL ??= "error";
  process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${port}`;
  applyLocalDefaults(process.env);
  const url = process.env.SHOPIFY_SIMULATOR_URL;
  // BENCH_SIMULATOR_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the simulator's side of a run.
  const nodeArgs = (process.env.BENCH_SIMULATOR_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const sim = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "simulator/main.ts"], {
    env: {
      ...process.env,
      SIMULATOR_PORT: String(port),
      SIMULATOR_STATE_FILE: path.join(dir, "simulator.json"),
      SIMULATOR_PERSIST_MS: String(opts.persistMs ?? 60_000),
      SHOPIFY_APP_TOML: toml,
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () => {
    // A profiled simulator is stopped gently: it writes its profile on exit.
    if (sim.exitCode === null) sim.kill(nodeArgs.length ? "SIGTERM" : "SIGKILL");
  };
  process.on("exit", stop);

  async function control<T>(method: string, p: string, body?: unknown): Promise<T> {
    const res = await fetch(`${url}/_sim${p}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`simulator ${method} ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async function ready(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`${url}/_sim/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the simulator did not start");
  }

  const cpuMs = () => processCpuMs(sim.pid);

  return { url, control, ready, stop, cpuMs };
}

export interface ContractTemplate {
  customerId: string;
  nextBillingDate: string;
  lines: { variantId: string; quantity: number; sellingPlanId?: string; price?: string }[];
  status?: "ACTIVE";
}

/** `count` contracts of one customer on the simulator, in bulk calls; their gids. */
export async function seedSimContracts(sim: BenchSimulator, shop: string, count: number, template: ContractTemplate): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += BULK) {
    const r = await sim.control<{ ids: string[] }>("POST", `/shops/${shop}/contracts/bulk`, {
      count: Math.min(BULK, count - done),
      // An explicit order name: the simulator's default numbers it by counting the shop's contracts.
      template: { originOrderName: "#bench", ...template },
      webhooks: false,
    });
    ids.push(...r.ids);
  }
  return ids;
}

export interface MirrorRow {
  /** Prefix of the rows' ids (two letters, unique per bench shop). */
  idPrefix: string;
  shopId: string;
  nextBillingAt: Date;
  customerGid: string;
  chargeCents: number;
  createdByService: boolean;
  sellingPlanGroupGid?: string | null;
}

/** The contracts' mirror rows, written with one INSERT ... SELECT unnest per BULK (no ORM, no webhooks). */
export async function mirrorContracts(gids: string[], row: MirrorRow): Promise<void> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    for (let done = 0; done < gids.length; done += BULK) {
      await db.query(
        `INSERT INTO contracts (id, shop_id, contract_gid, status, next_billing_at, customer_gid, currency_code, charge_amount_cents,
           billing_interval, billing_interval_count, created_by_service, revision, created_at, updated_at, mirrored_at, selling_plan_group_gid)
         SELECT $1 || lpad((n + $2)::text, 9, '0'), $3, gid, 'ACTIVE', $4, $5, 'USD', $6, 'MONTH', 1, $7, 1, now(), now(), now(), $8
         FROM unnest($9::text[]) WITH ORDINALITY AS t(gid, n)`,
        [
          row.idPrefix,
          done,
          row.shopId,
          row.nextBillingAt,
          row.customerGid,
          row.chargeCents,
          row.createdByService,
          row.sellingPlanGroupGid ?? null,
          gids.slice(done, done + BULK),
        ],
      );
    }
    await db.query("ANALYZE contracts");
  } finally {
    await db.end();
  }
}

/** User + system CPU of a process in ms, from /proc/<pid>/stat (clock ticks of 10 ms); 0 where there is no /proc. */
export function processCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Per second, as a whole number. */
export const perSecond = (n: number, ms: number) => (n / (ms / 1000)).toFixed(0);

// ---- the built web app in front of an in-process simulator (bench/customer.ts, bench/portal.ts) ----

export interface Series {
  name: string;
  latencies: number[];
  errors: number;
}

/** The p-th percentile (nearest rank) of the samples; NaN without any. */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

/**
 * Open loop: one call every 1000/rate ms for `seconds`; latency from each call's scheduled start,
 * so a stall is not hidden. A call answering false, or throwing, counts as an error.
 */
export async function drive(name: string, rate: number, seconds: number, call: (i: number) => Promise<boolean>): Promise<Series> {
  const total = rate * seconds;
  const interval = 1000 / rate;
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

export const fmtSeries = (s: Series) =>
  `${s.name.padEnd(38)} n=${String(s.latencies.length).padStart(4)}  p50 ${pct(s.latencies, 50).toFixed(1).padStart(6)} ms  p99 ${pct(s.latencies, 99).toFixed(1).padStart(6)} ms${s.errors ? `  errors ${s.errors}` : ""}`;

/** The machine's load averages (1, 5, 15 min), printed beside the figures: this machine is shared. */
export const loadLine = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(", ")}`;

export interface WebBenchOptions {
  /** Names the bench's shops (`bench-<name>-<run>-<n>.myshopify.com`) and temp folder. */
  name: string;
  webPort: number;
  simPort: number;
}

/**
 * Points this process at the bench database, the bench Redis prefix and the two ports, then
 * prepares the database and starts the simulator in this process. Call before importing app code
 * (the app reads its environment once); everything else is imported from the returned `app`.
 */
export async function startWebBench(opts: WebBenchOptions) {
  process.env.DATABASE_URL = `${PG_BASE}/${process.env.BENCH_DB ?? "subscriptions_bench"}`;
  process.env.REDIS_PREFIX ??= "bench";
  process.env.LOG_LEVEL ??= "error";
  process.env.PORT = String(opts.webPort);
  process.env.SIMULATOR_PORT = String(opts.simPort);
  process.env.SHOPIFY_APP_URL = `http://127.0.0.1:${opts.webPort}`;
  process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${opts.simPort}`;
  applyLocalDefaults(process.env);
  const { prepareBenchDatabase } = await import("./database");
  await prepareBenchDatabase(process.env.DATABASE_URL);
  const { startSimulator } = await import("../simulator/server");
  const { SimulatorControl } = await import("../simulator/control-client");
  const { env } = await import("../app/env.server");
  const { prisma } = await import("../app/db.server");
  const { recordInstallation, setAppPlan } = await import("../app/domain/shop/lifecycle.server");
  const { reconcileShop } = await import("../app/domain/subscriptions/reconcile.server");
  const config = env();
  const sim = await startSimulator({
    port: opts.simPort,
    stateFile: path.join(mkdtempSync(path.join(tmpdir(), `bench-${opts.name}-`)), "state.json"),
    appUrl: config.SHOPIFY_APP_URL,
    apiKey: config.SHOPIFY_API_KEY,
    apiSecret: config.SHOPIFY_API_SECRET,
  });
  const control = new SimulatorControl(sim.url);
  const run = Date.now().toString(36);
  const shopPrefix = `bench-${opts.name}-${run}-`;
  let web: { url: string; stop: () => Promise<void> } | null = null;

  /**
   * A PRO shop installed on the simulator and in the app, with `customers` customers of three
   * contracts each, mirrored through the real reconcile (no webhooks). `perCustomer` runs for
   * each new customer (a token to mint, say).
   */
  async function seedShop(n: number, customers: number, perCustomer?: (domain: string, customerId: string) => Promise<void>) {
    const domain = `${shopPrefix}${n}.myshopify.com`;
    const installed = await control.installShop({ shop: domain });
    await recordInstallation(domain, installed.accessToken, installed.scope);
    await setAppPlan(domain, "PRO");
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain } });
    const customerIds: string[] = [];
    const contracts = [];
    for (let c = 0; c < customers; c++) {
      const customer = await control.call<{ id: string }>("POST", `${control.shop(domain)}/customers`, {});
      customerIds.push(customer.id);
      for (let k = 0; k < 3; k++) contracts.push({ customerId: customer.id });
      await perCustomer?.(domain, customer.id);
    }
    await control.call("POST", `${control.shop(domain)}/contracts/bulk`, { contracts, webhooks: false });
    await reconcileShop(domain);
    return { domain, shopId: shop.id, customerIds };
  }

  /** server.ts (the built app, `npm run build` first) on the web port as a child process, once /healthz answers. */
  async function startWeb(): Promise<string> {
    const proc = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: { ...process.env, LOG_LEVEL: "error", NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const url = `http://127.0.0.1:${opts.webPort}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error("the web process did not start (is build/index.js there? npm run build)");
      await new Promise((r) => setTimeout(r, 200));
    }
    const exited = new Promise((r) => proc.once("exit", r));
    web = { url, stop: async () => void (proc.kill("SIGTERM"), await exited) };
    return url;
  }

  /** Stops the web process and the simulator and deletes the bench's shops. */
  async function close(): Promise<void> {
    await web?.stop();
    await sim.close();
    await prisma.shop.deleteMany({ where: { domain: { startsWith: shopPrefix } } });
    await prisma.$disconnect();
    const { closeQueues } = await import("../app/infra/queues.server");
    await closeQueues().catch(() => undefined);
  }

  return { config, control, prisma, seedShop, startWeb, close };
}
