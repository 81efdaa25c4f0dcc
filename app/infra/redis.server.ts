// Redis connections. BullMQ needs maxRetriesPerRequest: null on its connections.
import { Redis } from "ioredis";
import { env } from "../env.server";
import { log } from "./log.server";

export function createRedis(purpose: "queue" | "command" = "command"): Redis {
  const client = new Redis(env().REDIS_URL, {
    maxRetriesPerRequest: purpose === "queue" ? null : 1,
    enableOfflineQueue: purpose === "queue",
    lazyConnect: false,
  });
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
 */
export function luaCommand<F extends (...args: never[]) => Promise<unknown>>(name: string, numberOfKeys: number, lua: string) {
  const defined = new WeakSet<Redis>();
  return (client: Redis): F => {
    if (!defined.has(client)) {
      client.defineCommand(name, { numberOfKeys, lua });
      defined.add(client);
    }
    return (client as unknown as Record<string, F>)[name].bind(client) as F;
  };
}

let shared: Redis | undefined;

/** The process-wide command connection (rate limits, health checks). */
export function redis(): Redis {
  shared ??= createRedis("command");
  return shared;
}
