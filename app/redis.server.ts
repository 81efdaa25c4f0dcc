// Redis connections. BullMQ needs maxRetriesPerRequest: null on its connections.
import { Redis } from "ioredis";
import { env } from "./env.server";

export function createRedis(purpose: "queue" | "command" = "command"): Redis {
  return new Redis(env().REDIS_URL, {
    maxRetriesPerRequest: purpose === "queue" ? null : 1,
    enableOfflineQueue: purpose === "queue",
    lazyConnect: false,
  });
}

let shared: Redis | undefined;

/** The process-wide command connection (rate limits, health checks). */
export function redis(): Redis {
  shared ??= createRedis("command");
  return shared;
}
