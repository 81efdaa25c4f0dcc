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
  // Interactive transactions may run 30 s, not Prisma's 5 s: on a loaded machine a webhook's
  // mirror transaction (a few statements) outlasted 5 s and failed its job, which then redid the
  // work. No transaction here waits on Shopify (docs/decisions/144-bounded-tables.md), so the
  // limit only catches a leaked one; maxWait is the wait for a pool connection.
  return new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 30_000 } });
}

// Remix dev re-imports modules on change; keep one client across reloads.
export const prisma: PrismaClient = (globalThis.__prisma ??= create());
