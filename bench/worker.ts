// The worker process the benchmarks measure: the compiled bundle that production runs
// (scripts/run-all.ts; docs/decisions/089-compiled-workers.md), built here first so that
// `npm run bench:*` works right after `npm ci`.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { WORKERS_BUNDLE } from "../scripts/bundles";

let built = false;

/** workers/main.ts as production runs it, with `env`; its stdout is piped, stderr inherited. */
export function spawnBundledWorker(env: NodeJS.ProcessEnv): ChildProcess {
  if (!built) {
    execFileSync("npm", ["run", "--silent", "build:workers"], { stdio: "inherit" });
    built = true;
  }
  return spawn(process.execPath, [WORKERS_BUNDLE], { env, stdio: ["ignore", "pipe", "inherit"] });
}
