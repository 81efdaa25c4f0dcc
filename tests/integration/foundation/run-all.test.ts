// `npm start` (scripts/run-all.ts) supervises web, workers and simulator (
// docs/decisions/036-process-supervision.md): a crashed child is logged and restarted with
// back-off while the others keep running; SIGTERM still stops all of them together.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:net";
import { eventually } from "../../support/stack";

const base = Number(process.env.PORT) + 70; // ports of their own, beside this worker's stack
const env = (port: number) => ({
  ...process.env,
  PORT: String(port),
  SIMULATOR_PORT: String(port + 1),
  SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
  SHOPIFY_SIMULATOR_URL: `http://127.0.0.1:${port + 1}`,
  SIMULATOR_STATE_FILE: `.data/run-all-${port}/simulator.json`,
});

function start(port: number) {
  const proc = spawn(process.execPath, ["--import", "tsx", "scripts/run-all.ts"], { env: env(port), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  started.push({ proc, exit });
  /** The pid run-all reports for the newest start of `name`. */
  const pid = (name: string) => {
    const all = [...out.matchAll(new RegExp(`\\[run-all\\] started ${name} \\(pid (\\d+)\\)`, "g"))];
    return all.length ? Number(all[all.length - 1][1]) : null;
  };
  return { proc, exit, pid, output: () => out };
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );
/** True when nothing holds the port any more (a process left running would). */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
  });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Whatever happens in a test, no run-all is left behind (it would hold ports and consume this
// worker's queues in later test files).
const started: Array<{ proc: ChildProcess; exit: Promise<number | null> }> = [];
afterAll(async () => {
  for (const all of started) if (all.proc.exitCode === null && all.proc.signalCode === null) all.proc.kill("SIGTERM");
  await Promise.all(started.map((all) => all.exit));
});

it("starts all three, and SIGTERM stops all three", async () => {
  expect(await portFree(base)).toBe(true);
  const all = start(base);
  await eventually(() => answers(`http://127.0.0.1:${base}/healthz`), 90_000);
  await eventually(() => answers(`http://127.0.0.1:${base + 1}/_sim/health`), 60_000);
  all.proc.kill("SIGTERM");
  expect(await all.exit).toBe(0);
  expect(await portFree(base)).toBe(true);
  expect(await portFree(base + 1)).toBe(true);
}, 180_000);

it("a crashed worker or web process is restarted; the others keep running", async () => {
  const port = base + 4;
  const all = start(port);
  try {
    const web = `http://127.0.0.1:${port}/healthz`;
    await eventually(() => answers(web), 90_000);
    await eventually(async () => all.pid("workers") !== null && all.output().includes("[workers] workers ready"), 90_000);
    const [webPid, workersPid, simPid] = [all.pid("web")!, all.pid("workers")!, all.pid("simulator")!];

    process.kill(workersPid, "SIGKILL");
    await eventually(async () => all.output().includes("workers exited (SIGKILL); restarting in"), 30_000);
    expect(await answers(web)).toBe(true); // the API never noticed
    await eventually(async () => all.pid("workers") !== workersPid && all.output().split("[workers] workers ready").length === 3, 90_000);

    process.kill(webPid, "SIGKILL");
    await eventually(async () => all.output().includes("web exited (SIGKILL); restarting in"), 30_000);
    await eventually(async () => all.pid("web") !== webPid && (await answers(web)), 90_000);

    expect(alive(simPid)).toBe(true); // never restarted
    expect(all.pid("simulator")).toBe(simPid);
    expect(all.proc.exitCode).toBeNull();
  } finally {
    all.proc.kill("SIGTERM");
    expect(await all.exit).toBe(0);
  }
  expect(await portFree(port)).toBe(true);
}, 360_000);

it("a child that keeps failing is retried with growing delays, and starts once it can", async () => {
  const port = base + 8;
  // It holds the port and hangs up on anyone: the run's own web and workers call the simulator's
  // port too, and a connection left open would keep close() below from ever finishing.
  const squatter: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => squatter.listen(port + 1, "127.0.0.1", resolve)); // the simulator's port
  const all = start(port);
  try {
    await eventually(() => answers(`http://127.0.0.1:${port}/healthz`), 90_000);
    await eventually(async () => (all.output().match(/simulator exited \(code \d+\); restarting in/g) ?? []).length >= 3, 120_000);
    const delays = [...all.output().matchAll(/simulator exited \(code \d+\); restarting in (\d+) ms/g)].map((m) => Number(m[1]));
    expect(delays.slice(0, 3)).toEqual([1000, 2000, 4000]);
    expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(true); // web unaffected
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
    await eventually(() => answers(`http://127.0.0.1:${port + 1}/_sim/health`), 90_000);
  } finally {
    squatter.close();
    all.proc.kill("SIGTERM");
    expect(await all.exit).toBe(0);
  }
  expect(await portFree(port)).toBe(true);
  expect(await portFree(port + 1)).toBe(true);
}, 360_000);
