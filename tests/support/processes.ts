// Real processes for fault tests: the web server (server.ts) and the workers (workers/main.ts)
// started the way `npm start` starts them, on this Vitest worker's database and Redis prefix.
import { spawn, type ChildProcess } from "node:child_process";
import { eventually } from "./stack";
import { WEB_BUNDLE, WORKERS_BUNDLE } from "../../scripts/bundles";

// `npm start` runs these two as the bundles `npm run build` wrote (docs/decisions/089), and so do
// the tests: npm test builds before Vitest, and a bundle starts with about 2 s less CPU than the
// TypeScript loader (1.4 s against 3.4 s to "workers ready"), which the fault tests pay per start.
// Re-run `npm run build` after editing app code when running a single test file.
const BUNDLED: Record<string, string> = { "workers/main.ts": WORKERS_BUNDLE, "server.ts": WEB_BUNDLE };

export interface Child {
  proc: ChildProcess;
  /** Everything the process wrote (stdout + stderr), for assertions and failure messages. */
  output(): string;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * `file` run by node: the web server and the workers from their bundles, anything else with the
 * TypeScript loader. An `env` value of undefined unsets that variable.
 */
export function startProcess(file: string, env: Record<string, string | undefined> = {}): Child {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
  const args = BUNDLED[file] ? [BUNDLED[file]] : ["--import", "tsx", file];
  const proc = spawn(process.execPath, args, { env: merged, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited: () => exit,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exit;
    },
  };
}

/**
 * A worker process as the fault tests start it: its ChildProcess, resolving `ready` once it
 * serves its queues, with everything it wrote (`output`) and `stop` (SIGTERM, awaited).
 */
export type WorkerProcess = ChildProcess & { ready: Promise<void>; output(): string; stop(): Promise<void> };

/**
 * `workers/main.ts` serving `queues` (comma-separated) with a short job lock, so a killed
 * worker's job is handed on quickly. node itself runs it (startProcess), so a signal reaches the
 * process that runs the jobs. `ready` resolves on its "workers ready" line.
 */
export function startWorker(queues: string, extraEnv: Record<string, string> = {}): WorkerProcess {
  const child = startProcess("workers/main.ts", { WORKER_QUEUES: queues, WORKER_LOCK_MS: "1000", IMPORT_LEASE_MS: "5000", ...extraEnv });
  const ready = new Promise<void>((resolve, reject) => {
    child.proc.stdout?.on("data", () => child.output().includes("workers ready") && resolve());
    child.proc.once("exit", (code, signal) => reject(new Error(`worker exited early (${code ?? signal})\n${child.output().slice(-4000)}`)));
  });
  // Once ready, a later exit is the test's doing (a kill), not a start failure.
  ready.catch(() => undefined);
  return Object.assign(child.proc, { ready, output: child.output, stop: child.stop });
}

/** Resolves with the exit code and signal of a child process. */
export const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });

/** server.ts on `port` (the built app), answering /healthz. */
export async function startWebProcess(port: number, env: Record<string, string | undefined> = {}, file = "server.ts"): Promise<Child & { url: string }> {
  const child = startProcess(file, { PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}`;
  try {
    await eventually(
      () =>
        fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      120_000,
    );
  } catch (err) {
    await child.stop();
    throw new Error(`web process did not start: ${(err as Error).message}\n${child.output()}`, { cause: err });
  }
  return { ...child, url };
}
