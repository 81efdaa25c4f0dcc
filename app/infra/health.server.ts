// Liveness of the two stores every request depends on, each bounded by a short timeout.
import { prisma } from "../db.server";
import { redis } from "./redis.server";

const TIMEOUT_MS = 1500;

function within<T>(p: Promise<T>): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS).unref())]);
}

// The command connection refuses commands while (re)connecting, so wait for it first.
async function pingRedis(): Promise<string> {
  const client = redis();
  if (client.status !== "ready") {
    await new Promise<void>((resolve, reject) => {
      client.once("ready", resolve);
      client.once("error", reject);
    });
  }
  return client.ping();
}

export async function checkHealth(): Promise<{ ok: boolean; failing: string[] }> {
  const [db, cache] = await Promise.allSettled([within(prisma.$queryRaw`SELECT 1`), within(pingRedis())]);
  const failing = [db.status === "rejected" ? "database" : null, cache.status === "rejected" ? "redis" : null].filter((x): x is string => x !== null);
  return { ok: failing.length === 0, failing };
}
