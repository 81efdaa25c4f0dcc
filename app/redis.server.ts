// Redis connections. BullMQ needs maxRetriesPerRequest: null on its connections.
import { Redis } from "ioredis";
import { env } from "./env.server";
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

let shared: Redis | undefined;

/** The process-wide command connection (rate limits, health checks). */
export function redis(): Redis {
  shared ??= createRedis("command");
  return shared;
}
