// Redis connections: the one factory every process uses (docs/decisions/161-redis-cluster-client.md).
// A single Redis from REDIS_URL by default; an ioredis Cluster client when REDIS_CLUSTER_NODES is
// set. BullMQ needs maxRetriesPerRequest: null on its connections.
import { readFileSync } from "node:fs";
import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from "ioredis";
import { env, type Env } from "../env.server";
import { log } from "./log.server";

/** A connection as the app uses it: one node, or a cluster that routes each key to its master. */
export type RedisClient = Redis | Cluster;

type ClusterEnv = Pick<
  Env,
  | "REDIS_CLUSTER_NODES"
  | "REDIS_CLUSTER_TLS"
  | "REDIS_CLUSTER_TLS_CA_FILE"
  | "REDIS_CLUSTER_USERNAME"
  | "REDIS_CLUSTER_PASSWORD"
  | "REDIS_CLUSTER_NAT_MAP"
  | "REDIS_CLUSTER_DNS_LOOKUP"
>;

/** True when this process talks to a Redis Cluster (REDIS_CLUSTER_NODES set). */
export function clusterMode(e: Pick<Env, "REDIS_CLUSTER_NODES"> = env()): boolean {
  return e.REDIS_CLUSTER_NODES !== "";
}

const hostPort = (s: string) => {
  const i = s.lastIndexOf(":");
  return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
};

/** The seed nodes and cluster options from the environment (exported for the check script and tests). */
export function clusterConfig(e: ClusterEnv, redisOptions: RedisOptions = {}): { nodes: ClusterNode[]; options: ClusterOptions } {
  const nodes = e.REDIS_CLUSTER_NODES.split(",").map(hostPort);
  const tls = e.REDIS_CLUSTER_TLS ? (e.REDIS_CLUSTER_TLS_CA_FILE ? { ca: readFileSync(e.REDIS_CLUSTER_TLS_CA_FILE) } : {}) : undefined;
  const natMap = e.REDIS_CLUSTER_NAT_MAP
    ? Object.fromEntries(
        e.REDIS_CLUSTER_NAT_MAP.split(",").map((pair) => {
          const [from, to] = pair.split("=");
          return [from, hostPort(to)];
        }),
      )
    : undefined;
  return {
    nodes,
    options: {
      redisOptions: {
        ...redisOptions,
        ...(tls ? { tls } : {}),
        ...(e.REDIS_CLUSTER_USERNAME ? { username: e.REDIS_CLUSTER_USERNAME } : {}),
        ...(e.REDIS_CLUSTER_PASSWORD ? { password: e.REDIS_CLUSTER_PASSWORD } : {}),
      },
      // CLUSTER SLOTS answered within ioredis's default second only on an idle machine; a slow
      // answer is not a lost cluster (docs/decisions/161).
      slotsRefreshTimeout: 5_000,
      ...(natMap ? { natMap } : {}),
      // Managed clusters behind TLS (ElastiCache, MemoryDB) announce host names whose certificates
      // name them: resolving them to addresses first would fail the certificate check.
      ...(e.REDIS_CLUSTER_DNS_LOOKUP === "passthrough" ? { dnsLookup: (address: string, done: (err: null, a: string) => void) => done(null, address) } : {}),
    },
  };
}

export function createRedis(purpose: "queue" | "command" = "command"): RedisClient {
  const e = env();
  const maxRetriesPerRequest = purpose === "queue" ? null : 1;
  const enableOfflineQueue = purpose === "queue";
  let client: RedisClient;
  if (clusterMode(e)) {
    const { nodes, options } = clusterConfig(e, { maxRetriesPerRequest });
    client = new Cluster(nodes, { ...options, enableOfflineQueue, lazyConnect: false });
  } else {
    client = new Redis(e.REDIS_URL, { maxRetriesPerRequest, enableOfflineQueue, lazyConnect: false });
  }
  // ioredis reconnects by itself; a listener keeps a lost connection a log line, not a crash.
  // Logged once per outage (it retries many times a second while Redis is away).
  let down = false;
  client.on("error", (err) => {
    if (!down) log.warn("redis connection lost; reconnecting", { purpose, err });
    down = true;
  });
  client.on("ready", () => {
    if (down) log.info("redis connection restored", { purpose });
    down = false;
  });
  return client;
}

/**
 * A Lua script as a command of `client` (ioredis defineCommand: EVALSHA, EVAL on NOSCRIPT), defined
 * once per client: one round trip and one atomic step however many writes the script makes.
 * On a cluster every key a script touches must share one slot (docs/decisions/161).
 */
export function luaCommand<F extends (...args: never[]) => Promise<unknown>>(name: string, numberOfKeys: number, lua: string) {
  const defined = new WeakSet<RedisClient>();
  return (client: RedisClient): F => {
    if (!defined.has(client)) {
      client.defineCommand(name, { numberOfKeys, lua });
      defined.add(client);
    }
    return (client as unknown as Record<string, F>)[name].bind(client) as F;
  };
}

/**
 * Every key matching `pattern`. SCAN walks one node's keys: on a cluster it runs on every master
 * (docs/decisions/161), so no key is missed whichever slot it hashes to.
 */
export async function scanKeys(client: RedisClient, pattern: string): Promise<string[]> {
  if (client instanceof Cluster && client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  const nodes: Redis[] = client instanceof Cluster ? client.nodes("master") : [client];
  const keys: string[] = [];
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, batch] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
  }
  return keys;
}

/**
 * Deletes `keys` (UNLINK), in as many commands as slots: a multi-key command on a cluster must
 * name keys of one slot only (docs/decisions/161). Returns how many existed.
 */
export async function unlinkKeys(client: RedisClient, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  if (!(client instanceof Cluster)) return client.unlink(...keys);
  const bySlot = new Map<number, string[]>();
  for (const k of keys) {
    const slot = keySlot(k);
    bySlot.set(slot, [...(bySlot.get(slot) ?? []), k]);
  }
  const counts = await Promise.all([...bySlot.values()].map((group) => client.unlink(...group)));
  return counts.reduce((a, b) => a + b, 0);
}

/** The cluster slot of `key`: CRC16 (XMODEM) of its hash tag, or of the whole key, mod 16384. */
export function keySlot(key: string): number {
  const open = key.indexOf("{");
  if (open !== -1) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

let shared: RedisClient | undefined;

/** The process-wide command connection (rate limits, health checks). */
export function redis(): RedisClient {
  shared ??= createRedis("command");
  return shared;
}
