// One Prisma client per process, on the pg driver adapter (no query-engine binary).
import { PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "./env.server";
import { log } from "./infra/log.server";
import { ReadRetryingPool } from "./infra/pg.server";

declare global {
  var __prisma: PrismaClient | undefined;
}

function create(): PrismaClient {
  // The adapter's pool survives a dropped connection (it listens for `error` itself); these say
  // so in the log, so a database restart is visible (same rule as app/infra/pg.server.ts).
  const adapter = new PrismaPg(
    // One-statement reads are retried once when their connection was lost (docs/decisions/093).
    // Pool size from DATABASE_POOL_MAX (docs/decisions/145-connections-pgbouncer.md). The adapter
    // sends unnamed statements only, so it runs behind PgBouncer in transaction mode as it is.
    new ReadRetryingPool({ connectionString: env().DATABASE_URL, max: env().DATABASE_POOL_MAX }),
    {
      onPoolError: (err) => log.warn("prisma pool: idle database connection lost; it will be replaced", { err }),
      onConnectionError: (err) => log.warn("prisma pool: database connection lost during a transaction", { err }),
    },
  );
  return new PrismaClient({ adapter });
}

// Remix dev re-imports modules on change; keep one client across reloads.
export const prisma: PrismaClient = (globalThis.__prisma ??= create());
