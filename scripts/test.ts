// `npm test`: every test, against the real PostgreSQL and Redis.
//   0. services: PostgreSQL and Redis reachable, Debian's chromium installed (apt) when missing
//   1. migrate a template database (each Vitest worker gets a clone: tests/setup/global.ts)
//   2. generate the Prisma client, type-check, lint (ESLint, and the import rules with
//      dependency-cruiser: docs/decisions/092), check formatting (docs/decisions/047) and build the
//      Remix app (integration tests serve the build)
//   3. Vitest (unit + integration), then the Redis Cluster pass (the Redis-heavy suites against a
//      local cluster) and the PgBouncer pass (auth, publish, delivery through PgBouncer) beside
//      Playwright (e2e, Debian chromium)
// Exits non-zero if anything fails; prints one closing "N passed, N failed" line.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, mkdirSync } from "node:fs";
import pg from "pg";
import { applyLocalDefaults } from "../app/infra/local-env";
import { checkRedis } from "../app/infra/service-checks.server";
import { ensureChromium } from "./chromium";
import { CHROMIUM_PATH, PG_BASE, REDIS_URL, RUN_ID, PORT_BASE, TEMPLATE_DB } from "../tests/setup/workers";

applyLocalDefaults();
process.env.CHECKPOINT_DISABLE = "1";
const templateUrl = `${PG_BASE}/${TEMPLATE_DB}`;
const step = (msg: string) => console.log(`\n[test] ${msg}`);

/** Ends the run before any test ran, with a plain message and the closing count line. */
function stop(message: string): never {
  console.error(`\n[test] ${message}`);
  console.log("\n0 passed, 1 failed");
  process.exit(1);
}

/** Runs a setup step; a failure ends the run with a plain message (the tool printed its own). */
function must(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  try {
    execFileSync(cmd, args, { stdio: "inherit", env });
  } catch {
    stop(`failed: ${cmd.split("/").pop()} ${args.join(" ")}`);
  }
}

/** Runs setup steps at once; each one's output is printed whole when it ends, and any failure ends the run. */
async function mustAll(commands: [string, string[]][]): Promise<void> {
  const results = await Promise.all(
    commands.map(
      ([cmd, args]) =>
        new Promise<{ label: string; ok: boolean }>((resolve) => {
          const label = `${cmd.split("/").pop()} ${args.join(" ")}`;
          const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: process.env });
          let output = "";
          child.stdout.on("data", (c: Buffer) => (output += c.toString()));
          child.stderr.on("data", (c: Buffer) => (output += c.toString()));
          child.once("close", (code) => {
            if (output.trim()) console.log(`[test] ${label}:\n${output.trimEnd()}`);
            resolve({ label, ok: code === 0 });
          });
        }),
    ),
  );
  const failed = results.filter((r) => !r.ok);
  if (failed.length) stop(`failed: ${failed.map((r) => r.label).join("; ")}`);
}

step(`services (run ${RUN_ID}: databases subscriptions_test_${RUN_ID}_*, ports ${PORT_BASE}-${PORT_BASE + 999})`);
const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
await admin.end();
await checkRedis(REDIS_URL);
try {
  ensureChromium(CHROMIUM_PATH, { chosen: process.env.CHROMIUM_PATH !== undefined });
} catch (err) {
  stop((err as Error).message);
}

step("migrating the template database");
const env = { ...process.env, DATABASE_URL: templateUrl };
must("node_modules/.bin/prisma", ["migrate", "deploy"], env);
must("node_modules/.bin/prisma", ["generate"], env);
step("checking the schema matches the migrations");
must(
  "node_modules/.bin/prisma",
  ["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--exit-code"],
  env,
);

step("type check, lint and build (side by side: each is one process on one core)");
await mustAll([
  ["node_modules/.bin/tsc", ["--noEmit"]],
  ["node_modules/.bin/eslint", ["."]],
  ["npm", ["run", "--silent", "lint:deps"]],
  ["node_modules/.bin/prettier", ["--check", "--log-level", "warn", "."]],
  ["npm", ["run", "--silent", "build"]],
]);

mkdirSync("test-results", { recursive: true });
step("vitest: unit and integration");
const vitest = spawnSync("node_modules/.bin/vitest", ["run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"], {
  stdio: "inherit",
  env: process.env,
});

const counts = { passed: 0, failed: 0, skipped: 0 };
/**
 * Adds a Vitest pass's JSON report to the counts. A pass that exited non-zero with no failed test
 * (no report, or a setup that failed before any test ran, such as a cluster that did not start)
 * counts as one failure, so the closing line never says "0 failed" for a failed run.
 */
function countVitest(report: string, status: number | null): void {
  const r = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : {};
  counts.passed += r.numPassedTests ?? 0;
  counts.failed += r.numFailedTests ?? 0;
  counts.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  if (status !== 0 && !r.numFailedTests) counts.failed += 1;
}
countVitest("test-results/vitest.json", vitest.status);

/** A second Vitest pass under `config`, its output printed whole when it ends (it runs beside Playwright). */
function vitestPass(label: string, config: string, report: string): Promise<{ status: number; output: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("node_modules/.bin/vitest", ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.once("close", (code) => {
      console.log(`[test] ${label} (${Math.round((Date.now() - started) / 1000)} s):\n${output.trimEnd()}`);
      countVitest(report, code);
      resolve({ status: code ?? 1, output });
    });
  });
}

// Two more passes, one after the other, beside Playwright (which uses other databases and ports;
// each pass re-creates the workers' databases, so they follow the main pass). Their longest files
// wait on Shopify's bucket or on spawned workers, not on the CPU.
//   - The Redis Cluster pass (docs/decisions/161, 162): the Redis-heavy suites (workers, sweeps,
//     webhook durability and delivery, rate limits, key usage, exports, billing:
//     vitest.cluster.config.ts) against a local three-master cluster, every client a cluster
//     client; its output must not mention CROSSSLOT or MOVED.
//   - The PgBouncer pass (docs/decisions/145): authentication, publish and delivery
//     (vitest.pgbouncer.config.ts) through Debian's PgBouncer in transaction mode.
step("vitest: the Redis Cluster pass, then the PgBouncer pass, beside playwright");
const passes = (async () => {
  const cluster = await vitestPass("the Redis Cluster pass", "vitest.cluster.config.ts", "test-results/vitest-cluster.json");
  const bouncer = await vitestPass("the PgBouncer pass", "vitest.pgbouncer.config.ts", "test-results/vitest-pgbouncer.json");
  return { cluster, bouncer };
})();

let e2eStatus = 0;
const e2e = !existsSync("tests/e2e")
  ? Promise.resolve()
  : new Promise<void>((resolve) => {
      step("playwright: end-to-end in chromium");
      const pw = spawn("node_modules/.bin/playwright", ["test", "--reporter=list,json"], {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json" },
      });
      pw.once("close", (code) => {
        e2eStatus = code ?? 1;
        if (existsSync("test-results/playwright.json")) {
          const r = JSON.parse(readFileSync("test-results/playwright.json", "utf8"));
          counts.passed += r.stats?.expected ?? 0;
          counts.failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
          counts.skipped += r.stats?.skipped ?? 0;
        } else if (e2eStatus !== 0) counts.failed += 1;
        resolve();
      });
    });

const [{ cluster, bouncer }] = await Promise.all([passes, e2e]);
const slotErrors = cluster.output.split("\n").filter((line) => /CROSSSLOT Keys|MOVED \d+ /.test(line));
if (slotErrors.length) {
  console.error(`[test] the cluster pass logged slot errors:\n${slotErrors.slice(0, 5).join("\n")}`);
  counts.failed += 1;
}

const ok =
  vitest.status === 0 && cluster.status === 0 && bouncer.status === 0 && slotErrors.length === 0 && e2eStatus === 0 && counts.failed === 0 && counts.passed > 0;
console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(ok ? 0 : 1);
