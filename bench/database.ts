// The benchmarks' own database: created when missing (app/infra/service-checks.server.ts, as `npm run setup`
// does) and migrated, so a bench never touches the dev or test databases.
import { execFileSync } from "node:child_process";
import { ensureDatabase } from "../app/infra/service-checks.server";

export async function prepareBenchDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  console.log(`migrating ${new URL(url).pathname.slice(1)} ...`);
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
  });
}
