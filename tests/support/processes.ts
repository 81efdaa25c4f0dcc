// Real processes for fault tests: the web server (server.ts) and the workers (workers/main.ts)
// started the way `npm start` starts them, on this Vitest worker's database and Redis prefix.
import { spawn, type ChildProcess } from "node:child_process";
import { eventually } from "./stack";

export interface Child {
  proc: ChildProcess;
  /** Everything the process wrote (stdout + stderr), for assertions and failure messages. */
  output(): string;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

export function startProcess(file: string, env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ["--import", "tsx", file], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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

/** server.ts on `port` (the built app), answering /healthz. */
export async function startWebProcess(port: number, env: Record<string, string> = {}): Promise<Child & { url: string }> {
  const child = startProcess("server.ts", { PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}`;
  try {
    await eventually(() => fetch(`${url}/healthz`).then((r) => r.ok, () => false), 120_000);
  } catch (err) {
    await child.stop();
    throw new Error(`web process did not start: ${(err as Error).message}\n${child.output()}`);
  }
  return { ...child, url };
}
