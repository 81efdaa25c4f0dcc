// Liveness of the two stores every request depends on, each bounded by a short timeout.
import { prisma } from "../db.server";
import { redis } from "../redis.server";

const TIMEOUT_MS = 1500;

function within<T>(p: Promise<T>): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS).unref())]);
}

export async function checkHealth(): Promise<{ ok: boolean; failing: string[] }> {
  const [db, cache] = await Promise.allSettled([within(prisma.$queryRaw`SELECT 1`), within(redis().ping())]);
  const failing = [db.status === "rejected" ? "database" : null, cache.status === "rejected" ? "redis" : null].filter(
    (x): x is string => x !== null,
  );
  return { ok: failing.length === 0, failing };
}
