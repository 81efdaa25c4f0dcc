// npm run bench:export: the export renderer on 1,000,000 subscription rows, beside PostgreSQL's
// own `COPY (...) TO STDOUT WITH CSV` of the same rows through psql, in the same run.
//
//   1. Seeds (once; reused when already there) the database subscriptions_bench_export with one
//      PRO shop of 1,000,000 contracts (INSERT ... SELECT generate_series); ANALYZE.
//   2. Baseline: psql runs COPY over the very SELECT the subscriptions dataset pages through
//      (same columns, conditions and order, without the keyset pages), into a file.
//   3. For CSV and then JSONL: a real worker process (workers/main.ts compiled as production runs
//      it, bench/worker.ts; exports queue only)
//      renders an export job of those rows; wall time (started_at -> ready_at), rows/s, the
//      ratio to COPY, and the worker process's peak RSS (VmHWM from /proc).
// Targets: within 3x of COPY; peak RSS under 256 MB whatever the row count.
// Benchmarks are not tests: nothing here asserts a time.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { applyLocalDefaults } from "../app/infra/local-env";
import { prepareBenchDatabase } from "./database";
import { spawnBundledWorker } from "./worker";

const BENCH_DB = process.env.BENCH_DB ?? "subscriptions_bench_export";
const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const SHOP = "bench_export_shop";
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

process.env.DATABASE_URL = `${PG_BASE}/${BENCH_DB}`;
process.env.REDIS_PREFIX ??= "bench-export";
process.env.LOG_LEVEL ??= "error";
process.env.EXPORTS_DIR ??= mkdtempSync(path.join(tmpdir(), "bench-exports-"));
applyLocalDefaults(process.env);

/** Newlines in `file`, read a megabyte at a time (past about 1.8 million rows the COPY file is larger than a string can be). */
function countLines(file: string): number {
  const fd = openSync(file, "r");
  const buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  try {
    for (let read = readSync(fd, buf); read > 0; read = readSync(fd, buf)) {
      const chunk = buf.subarray(0, read);
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

async function seed(db: pg.Client): Promise<void> {
  const { rows } = await db.query("SELECT count(*)::int AS n FROM contracts WHERE shop_id = $1", [SHOP]);
  if (rows[0].n === ROWS) {
    console.log(`reusing seeded data (${rows[0].n} contracts)`);
    return;
  }
  console.log(`seeding ${ROWS.toLocaleString("en-US")} contracts ...`);
  const t0 = Date.now();
  // Row triggers off while seeding (the cohort summary trigger would update a dozen hot cells a
  // million times); the summary is recounted once below, so it stays exact.
  await db.query("SET session_replication_role = replica");
  await db.query("DELETE FROM contracts WHERE shop_id = $1", [SHOP]);
  await db.query("DELETE FROM contract_cohorts WHERE shop_id = $1", [SHOP]);
  await db.query("SET session_replication_role = DEFAULT");
  await db.query("DELETE FROM shops WHERE id = $1", [SHOP]);
  await db.query("SET session_replication_role = replica");
  await db.query(`INSERT INTO shops (id, domain, app_plan, created_at, updated_at) VALUES ($1, 'bench-export.myshopify.com', 'PRO', now(), now())`, [SHOP]);
  for (let start = 0; start < ROWS; start += 100_000) {
    await db.query(
      `INSERT INTO contracts (id, shop_id, contract_gid, status, next_billing_at, selling_plan_gid, selling_plan_group_gid,
        customer_gid, currency_code, charge_amount_cents, monthly_amount_cents, billing_interval, billing_interval_count,
        product_title, frequency_label, order_name, created_by_service, revision, created_at, updated_at, ended_at, mirrored_at)
      SELECT 'bx' || lpad(n::text, 8, '0'), $1, 'gid://shopify/SubscriptionContract/' || (5000000 + n),
        (CASE WHEN n % 10 < 6 THEN 'ACTIVE' WHEN n % 10 < 8 THEN 'PAUSED' WHEN n % 10 = 8 THEN 'CANCELLED' ELSE 'EXPIRED' END)::"ContractStatus",
        now() + ((n % 30) || ' days')::interval,
        'gid://shopify/SellingPlan/' || (n % 5), 'gid://shopify/SellingPlanGroup/' || (n % 5),
        'gid://shopify/Customer/' || (n % 300000), 'USD', 1500 + n % 4000,
        CASE WHEN n % 50 = 0 THEN NULL ELSE 1500 + n % 4000 END, 'MONTH', 1,
        CASE WHEN n % 7 = 0 THEN 'Café "Crème" beans, 1kg' ELSE 'Coffee beans' END, 'Every month', '#' || n, true, 1,
        now() - (n || ' seconds')::interval, now() - (n || ' seconds')::interval,
        CASE WHEN n % 10 >= 8 THEN now() - (n || ' seconds')::interval END, now()
      FROM generate_series($2::int, $3::int) n`,
      [SHOP, start, Math.min(start + 100_000, ROWS) - 1],
    );
    process.stdout.write(".");
  }
  await db.query("SET session_replication_role = DEFAULT");
  await db.query(
    `INSERT INTO contract_cohorts (shop_id, cohort_month, ended_month, count)
     SELECT shop_id, contract_month(created_at), contract_ended_month(ended_at), count(*)::int
     FROM contracts WHERE shop_id = $1 AND created_by_service GROUP BY 1, 2, 3`,
    [SHOP],
  );
  await db.query("VACUUM ANALYZE contracts");
  console.log(`\nseeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function main() {
  await prepareBenchDatabase(`${PG_BASE}/${BENCH_DB}`);
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await seed(db);

  const { subscriptionExportSql } = await import("../app/domain/exports/datasets.server");
  const { createExport } = await import("../app/domain/exports/jobs.server");
  const { prisma } = await import("../app/db.server");
  const { closeQueues } = await import("../app/infra/queues.server");

  // The dataset's own SELECT, run whole by COPY (values inlined: psql -c takes no parameters).
  const sql = subscriptionExportSql(SHOP, {}, new Date(), null, null);
  const inlined = sql.text.replace(/\$(\d+)/g, (_, i) => `'${String(sql.values[Number(i) - 1]).replace(/'/g, "''")}'`);
  const copyFile = path.join(process.env.EXPORTS_DIR!, "copy.csv");
  const t0 = process.hrtime.bigint();
  const copy = spawnSync(
    "sh",
    ["-c", `psql "${process.env.DATABASE_URL}" -X -q -c "COPY (${inlined.replace(/"/g, '\\"')}) TO STDOUT WITH CSV" > "${copyFile}"`],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const copyMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (copy.status !== 0) throw new Error("psql COPY failed");
  const copyLines = countLines(copyFile);
  console.log(
    `\nCOPY ... TO STDOUT WITH CSV via psql: ${fmt(copyLines)} rows, ${(copyMs / 1000).toFixed(2)} s, ${fmt(copyLines / (copyMs / 1000))} rows/s, ${(statSync(copyFile).size / 1e6).toFixed(1)} MB`,
  );
  rmSync(copyFile, { force: true });

  for (const format of ["csv", "jsonl"] as const) {
    await prisma.exportJob.deleteMany({ where: { shopId: SHOP } });
    const worker = spawnBundledWorker({ ...process.env, WORKER_QUEUES: "exports", EXPORT_MAX_BYTES: String(2 ** 40) });
    await new Promise<void>((resolve, reject) => {
      worker.stdout!.on("data", (c: Buffer) => c.toString().includes("workers ready") && resolve());
      worker.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
    });
    let peakKb = 0;
    const sample = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.pid}/status`, "utf8"));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // the process is gone
      }
    }, 100);
    const job = await createExport({ shopId: SHOP, dataset: "subscriptions", format, filters: {}, filterOptions: {} });
    let row;
    for (;;) {
      row = await prisma.exportJob.findUniqueOrThrow({ where: { id: job.id } });
      if (row.status === "ready" || row.status === "failed") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    clearInterval(sample);
    worker.kill("SIGTERM");
    if (row.status !== "ready") throw new Error(`export failed: ${row.errorCode} ${row.errorMessage}`);
    const ms = row.readyAt!.getTime() - row.startedAt!.getTime();
    console.log(
      `export ${format.padEnd(5)} (worker):           ${fmt(row.rowCount!)} rows, ${(ms / 1000).toFixed(2)} s, ${fmt(row.rowCount! / (ms / 1000))} rows/s, ` +
        `${(Number(row.byteSize) / 1e6).toFixed(1)} MB, ${(ms / copyMs).toFixed(2)}x COPY (target <= 3x), worker peak RSS ${(peakKb / 1024).toFixed(0)} MB (target < 256 MB)`,
    );
  }
  await prisma.exportJob.deleteMany({ where: { shopId: SHOP } });
  await db.end();
  await closeQueues();
  await prisma.$disconnect();
  rmSync(process.env.EXPORTS_DIR!, { recursive: true, force: true });
}

await main();
process.exit(0);
