// One Prisma client per process, on the pg driver adapter (no query-engine binary).
import { PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "./env.server";

declare global {
  var __prisma: PrismaClient | undefined;
}

function create(): PrismaClient {
  const adapter = new PrismaPg({ connectionString: env().DATABASE_URL, max: 10 });
  return new PrismaClient({ adapter });
}

// Remix dev re-imports modules on change; keep one client across reloads.
export const prisma: PrismaClient = (globalThis.__prisma ??= create());
