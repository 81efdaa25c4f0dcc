// `npm start` / `npm run dev`: web, workers and (in simulator mode) the platform simulator,
// started together and stopped together. If one process dies, the others are stopped too.
import { spawn, type ChildProcess } from "node:child_process";
import { applyLocalDefaults } from "./local-env";

applyLocalDefaults();
const dev = process.argv.includes("--dev");
// Children run as `node --import tsx`, not through the tsx launcher, so the signals we send
// reach the process doing the work.
const node = process.execPath;
const ts = (file: string, ...flags: string[]): [string, string[]] => [node, [...flags, "--import", "tsx", file]];

const processes: Record<string, [string, string[]]> = {
  // Dev: `remix dev` rebuilds on change and serves the build with remix-serve (live reload).
  web: dev ? ["node_modules/.bin/remix", ["dev"]] : ts("server.ts"),
  workers: dev ? ts("workers/main.ts", "--watch") : ts("workers/main.ts"),
};
if (process.env.SHOPIFY_SIMULATOR_URL) processes.simulator = ts("simulator/main.ts");

const children = new Map<string, ChildProcess>();
let stopping = false;

function prefix(name: string, stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) {
  let partial = "";
  stream?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
}

function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill("SIGTERM");
  const deadline = setTimeout(() => {
    for (const child of children.values()) child.kill("SIGKILL");
  }, 30_000);
  const wait = setInterval(() => {
    if ([...children.values()].every((c) => c.exitCode !== null || c.signalCode !== null)) {
      clearInterval(wait);
      clearTimeout(deadline);
      process.exit(code);
    }
  }, 100);
}

for (const [name, [cmd, args]] of Object.entries(processes)) {
  const child = spawn(cmd, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  children.set(name, child);
  prefix(name, child.stdout, process.stdout);
  prefix(name, child.stderr, process.stderr);
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[run-all] ${name} exited (${signal ?? code}); stopping the others`);
      stopAll(code || 1);
    }
  });
}
console.log(`[run-all] started ${Object.keys(processes).join(", ")}; app on ${process.env.SHOPIFY_APP_URL}`);
process.once("SIGINT", () => stopAll(0));
process.once("SIGTERM", () => stopAll(0));
