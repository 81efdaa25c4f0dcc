// A local three-master Redis Cluster from Debian's redis-server, for tests and local trials of
// the cluster client (docs/decisions/161-redis-cluster-client.md): one redis-server per port,
// data in a directory of its own under the system's temporary directory, joined with
// `redis-cli --cluster create`. Masters only: the tests need slots spread over nodes, not failover.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";

export const REDIS_SERVER_BIN = "/usr/bin/redis-server";
export const REDIS_CLI_BIN = "/usr/bin/redis-cli";

export interface LocalRedisCluster {
  ports: number[];
  /** The value for REDIS_CLUSTER_NODES. */
  nodes: string;
  stop(): Promise<void>;
}

/**
 * A client for one probe: it gives up after a second, so a port held by something that is not
 * Redis (it accepts the connection and never answers) reads as "no" instead of hanging the start.
 */
const probe = (port: number) =>
  new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1_000, commandTimeout: 1_000 });

async function ping(port: number): Promise<boolean> {
  const r = probe(port);
  r.on("error", () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

async function clusterOk(port: number): Promise<boolean> {
  const r = probe(port);
  r.on("error", () => undefined);
  try {
    await r.connect();
    return /cluster_state:ok/.test(String(await r.cluster("INFO")));
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  let pause = 20;
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`redis cluster: ${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 250);
  }
}

/**
 * Starts three empty masters on `ports` and joins them into one cluster (16384 slots split three
 * ways). Each node's cluster bus listens on the matching `busPorts` entry, chosen by the caller:
 * Redis's default bus port (port + 10,000) can fall in Linux's ephemeral range, where an outgoing
 * connection's TIME_WAIT on that port made a node abort at start ("bind: Address already in use").
 * A start that fails is still tried once more.
 */
export async function startRedisCluster(ports: number[], busPorts: number[]): Promise<LocalRedisCluster> {
  if (!existsSync(REDIS_SERVER_BIN) || !existsSync(REDIS_CLI_BIN)) {
    throw new Error("redis-server / redis-cli not found: run `apt-get install -y redis-server` (Debian's Redis 7)");
  }
  for (const port of ports) if (await ping(port)) throw new Error(`redis cluster: port ${port} is already serving Redis (a previous run left it running?)`);
  try {
    return await startOnce(ports, busPorts);
  } catch (err) {
    console.warn(`${(err as Error).message}\nredis cluster: starting it again`);
    return startOnce(ports, busPorts);
  }
}

async function startOnce(ports: number[], busPorts: number[]): Promise<LocalRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "redis-cluster-"));
  const children: ChildProcess[] = ports.map((port, i) =>
    spawn(
      REDIS_SERVER_BIN,
      [
        "--port",
        String(port),
        "--cluster-port",
        String(busPorts[i]),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        "5000",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--logfile",
        path.join(dir, `redis-${port}.log`),
      ],
      { stdio: "ignore" },
    ),
  );
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once("exit", () => resolve());
            c.kill("SIGTERM");
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // A node that exited (its port taken, say) will never answer: say so now, not after the wait.
    const answering = async (i: number) => {
      if (children[i].exitCode !== null) throw new Error(`redis cluster: node ${ports[i]} exited with ${children[i].exitCode}`);
      return ping(ports[i]);
    };
    for (let i = 0; i < ports.length; i++) await until(`node ${ports[i]} answering`, () => answering(i));
    const create = spawnSync(REDIS_CLI_BIN, ["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-replicas", "0", "--cluster-yes"], {
      encoding: "utf8",
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    for (const port of ports) await until(`cluster_state:ok on ${port}`, () => clusterOk(port));
  } catch (err) {
    // What each node said and how it ended, before its directory goes.
    const said = ports.map((port, i) => {
      const log = path.join(dir, `redis-${port}.log`);
      const tail = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").slice(-5).join("\n") : "(no log)";
      return `node ${port} (exit ${children[i].exitCode ?? children[i].signalCode ?? "none"}):\n${tail}`;
    });
    await stop();
    throw new Error(`${(err as Error).message}\n${said.join("\n")}`, { cause: err });
  }
  return { ports, nodes: ports.map((p) => `127.0.0.1:${p}`).join(","), stop };
}
