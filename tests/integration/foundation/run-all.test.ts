// `npm start` (scripts/run-all.ts): web, workers and simulator start together and stop together.
import { spawn } from "node:child_process";
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
const start = (port: number) => spawn(process.execPath, ["--import", "tsx", "scripts/run-all.ts"], { env: env(port), stdio: "ignore" });
const exited = (child: ReturnType<typeof spawn>) => new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
const answers = (url: string) => fetch(url).then((r) => r.ok, () => false);
/** True when nothing holds the port any more (a process left running would). */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
  });

it("starts all three, and SIGTERM stops all three", async () => {
  const all = start(base);
  const done = exited(all);
  await eventually(() => answers(`http://127.0.0.1:${base}/healthz`), 30_000);
  await eventually(() => answers(`http://127.0.0.1:${base + 1}/_sim/health`), 10_000);
  all.kill("SIGTERM");
  expect(await done).toBe(0);
  expect(await portFree(base)).toBe(true);
  expect(await portFree(base + 1)).toBe(true);
});

it("when one process dies, the others are stopped and the run fails", async () => {
  const port = base + 4;
  const squatter: Server = createServer();
  await new Promise<void>((resolve) => squatter.listen(port + 1, "127.0.0.1", resolve)); // the simulator's port
  try {
    const all = start(port);
    const code = await exited(all);
    expect(code).not.toBe(0);
    expect(await portFree(port)).toBe(true); // web was stopped with it (run-all waits for every child)
  } finally {
    squatter.close();
  }
}, 60_000);
