// `npm run setup`: idempotent. Checks PostgreSQL and Redis, creates the database if needed,
// generates the Prisma client, applies migrations, and seeds the demo shops (simulator + mirror).
import { execFileSync } from "node:child_process";
import { applyLocalDefaults } from "../app/infra/local-env";
import { checkConfiguredRedis, ensureDatabase } from "../app/infra/service-checks.server";

applyLocalDefaults();
process.env.CHECKPOINT_DISABLE = "1";
const step = (msg: string) => console.log(`[setup] ${msg}`);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: "inherit", env: process.env });

step("checking PostgreSQL and Redis");
await ensureDatabase(process.env.DATABASE_URL!);
await checkConfiguredRedis();
step("generating the Prisma client");
run("node_modules/.bin/prisma", ["generate"]);
step("applying migrations");
run("node_modules/.bin/prisma", ["migrate", "deploy"]);
step("sealing Shopify access tokens stored in clear or under an older ENCRYPTION_KEY (decision 038)");
run("node_modules/.bin/tsx", ["scripts/cli.ts", "sessions", "reseal"]);
step("seeding the demo shops");
run("node_modules/.bin/tsx", ["prisma/seed.ts"]);
step("done");
