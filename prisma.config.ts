// Prisma CLI configuration: binary-free mode (JS schema engine over a driver adapter).
// prisma.config.ts does not load .env: DATABASE_URL must be in the environment (scripts/env.ts
// supplies the dev default for npm scripts). See docs/decisions/001-prisma-binary-free.md.
import { defineConfig } from "prisma/config";
import { cliAdapter } from "./prisma/cli-adapter";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/subscriptions_dev";
process.env.DATABASE_URL = url;
// Migrations go straight to PostgreSQL, never through a pooler in transaction mode (their
// CONCURRENTLY index builds and the schema engine's own session): DIRECT_DATABASE_URL when set
// (docs/decisions/145-connections-pgbouncer.md).
const direct = process.env.DIRECT_DATABASE_URL || url;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  adapter: async () => cliAdapter(direct),
});
