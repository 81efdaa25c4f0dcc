// The set-up shared by the benchmarks that drive the platform simulator as its own process
// (bench/billing.ts, bench/boxes.ts): the bench's environment, the simulator with webhooks off
// (a shopify.app.toml with no subscriptions: a bench measures its job, not the mirror), its
// control routes, and due contracts seeded in bulk on it and in the bench database's mirror.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
export function startBenchSimulator(database: string, port: number, name: string): BenchSimulator {
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  const toml = path.join(dir, "no-webhooks.toml");
  writeFileSync(toml, '[webhooks]\napi_version = "2026-10"\n');
  process.env.DATABASE_URL = `${PG_BASE}/${process.env.BENCH_DB ?? database}`;
  process.env.REDIS_PREFIX ??= "bench";
  process.env.LOG_LEVEL ??= "error";
  process.env.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${port}`;
  applyLocalDefaults(process.env);
  const url = process.env.SHOPIFY_SIMULATOR_URL;
  const sim = spawn(process.execPath, ["--import", "tsx", "simulator/main.ts"], {
    env: {
      ...process.env,
      SIMULATOR_PORT: String(port),
      SIMULATOR_STATE_FILE: path.join(dir, "simulator.json"),
      SIMULATOR_PERSIST_MS: "60000",
      SHOPIFY_APP_TOML: toml,
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () => {
    if (sim.exitCode === null) sim.kill("SIGKILL");
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
  lines: { variantId: string; quantity: number; sellingPlanId?: string }[];
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
