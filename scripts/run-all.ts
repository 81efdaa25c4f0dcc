// `npm start` / `npm run dev`: web, workers and (in simulator mode) the platform simulator, each
// supervised on its own (docs/decisions/036-process-supervision.md). A child that exits is
// logged and restarted after a back-off (1 s doubling to 30 s; back to 1 s once it has run for
// a minute), and never takes the others down: a worker crash costs no API request. Ctrl-C or
// SIGTERM stops them all together (SIGTERM, then SIGKILL after 30 s) and exits 0.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { WEB_BUNDLE, WORKERS_BUNDLE } from "./bundles";
import { applyLocalDefaults } from "../app/infra/local-env";
import { assertDatabaseReady } from "../app/infra/service-checks.server";

applyLocalDefaults();
const dev = process.argv.includes("--dev");
// `npm start` runs the build (the Remix app and the workers' bundle), and every child needs a
// migrated database: without them the children would crash and be restarted forever, so say
// what to run instead.
for (const built of dev ? [] : ["build/index.js", WORKERS_BUNDLE, WEB_BUNDLE]) {
  if (!existsSync(built)) {
    console.error(`[run-all] No build at ${built}: run \`npm run build\` first (\`npm run demo\` does).`);
    process.exit(1);
  }
}
if (process.env.NODE_ENV !== "production") {
  try {
    await assertDatabaseReady(process.env.DATABASE_URL!);
  } catch (err) {
    console.error(`[run-all] ${(err as Error).message}`);
    process.exit(1);
  }
}
// Children run as `node --import tsx`, not through the tsx launcher, so the signals we send
// reach the process doing the work.
const node = process.execPath;
const ts = (file: string, ...flags: string[]): [string, string[]] => [node, [...flags, "--import", "tsx", file]];

const processes: Record<string, [string, string[]]> = {
  // Dev: `remix dev` rebuilds on change and restarts server.ts (the same server as production,
  // so /api/ keeps its front door: docs/decisions/037-api-front-door.md).
  // Production runs both compiled bundles: without the TypeScript loader a worker process holds
  // about 50 MB less, the web server about 55 MB less (docs/decisions/089-compiled-workers.md).
  web: dev ? ["node_modules/.bin/remix", ["dev", "-c", `${node} --import tsx server.ts`]] : [node, [WEB_BUNDLE]],
  workers: dev ? ts("workers/main.ts", "--watch") : [node, [WORKERS_BUNDLE]],
};
if (process.env.SHOPIFY_SIMULATOR_URL) processes.simulator = ts("simulator/main.ts");
// The local mailbox (docs/decisions/104-local-mailbox.md) when mail goes to it: SMTP_URL unset or
// pointing at 127.0.0.1:MAILBOX_SMTP_PORT (a real SMTP_URL means a real server; MAILBOX=off skips it).
const mailboxSmtp = `smtp://127.0.0.1:${process.env.MAILBOX_SMTP_PORT ?? 1025}`;
if (process.env.MAILBOX !== "off" && (process.env.SMTP_URL ?? mailboxSmtp).replace(/\/$/, "") === mailboxSmtp) processes.mailbox = ts("mailbox/main.ts");

// `npm start` runs in production mode unless NODE_ENV says otherwise: Remix and Express answer
// errors without stack traces or file paths, React renders its production build. Development
// mode is what `npm run dev` is for (docs/decisions/093). Set after the local defaults above.
const childEnv = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? (dev ? "development" : "production") };

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
const STABLE_MS = 60_000;

interface Supervised {
  child: ChildProcess | null;
  startedAt: number;
  delayMs: number;
  restart: NodeJS.Timeout | null;
}

const supervised = new Map<string, Supervised>();
let stopping = false;

const say = (msg: string) => console.log(`[run-all] ${msg}`);

function prefix(name: string, stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) {
  let partial = "";
  stream?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
}

function start(name: string) {
  const [cmd, args] = processes[name];
  const s = supervised.get(name) ?? { child: null, startedAt: 0, delayMs: FIRST_DELAY_MS, restart: null };
  supervised.set(name, s);
  s.restart = null;
  const child = spawn(cmd, args, { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  s.child = child;
  s.startedAt = Date.now();
  prefix(name, child.stdout, process.stdout);
  prefix(name, child.stderr, process.stderr);
  say(`started ${name} (pid ${child.pid})`);
  child.on("error", (err) => say(`${name} could not be started: ${err.message}`));
  child.on("exit", (code, signal) => {
    s.child = null;
    if (stopping) return;
    // A child that ran a while before dying starts over from the shortest delay.
    if (Date.now() - s.startedAt >= STABLE_MS) s.delayMs = FIRST_DELAY_MS;
    const delay = s.delayMs;
    s.delayMs = Math.min(s.delayMs * 2, MAX_DELAY_MS);
    say(`${name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
    s.restart = setTimeout(() => start(name), delay);
  });
}

function stopAll() {
  if (stopping) return;
  stopping = true;
  say("stopping all");
  for (const s of supervised.values()) {
    if (s.restart) clearTimeout(s.restart);
    s.child?.kill("SIGTERM");
  }
  const deadline = setTimeout(() => {
    for (const s of supervised.values()) s.child?.kill("SIGKILL");
  }, 30_000);
  const wait = setInterval(() => {
    if ([...supervised.values()].every((s) => s.child === null)) {
      clearInterval(wait);
      clearTimeout(deadline);
      process.exit(0);
    }
  }, 100);
}

// Signals first: a stop that arrives while the children are starting still stops them all.
process.once("SIGINT", stopAll);
process.once("SIGTERM", stopAll);
for (const name of Object.keys(processes)) start(name);
say(`supervising ${Object.keys(processes).join(", ")}; app on ${process.env.SHOPIFY_APP_URL}`);
if (processes.mailbox) say(`mailbox on http://127.0.0.1:${process.env.MAILBOX_WEB_PORT ?? 1080} (SMTP ${mailboxSmtp})`);
