// Right after `npm ci`, before `npm run setup`: the scripts that need the database say so and
// what to run, instead of failing deep inside a query. Real processes against a database that
// exists but has no migrations, and one that does not exist.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { PG_BASE, RUN_ID } from "../../setup/workers";

const run = promisify(execFile);
const EMPTY = `subscriptions_test_${RUN_ID}_unmigrated`;
const MISSING = `subscriptions_test_${RUN_ID}_never_created`;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin(`DROP DATABASE IF EXISTS "${EMPTY}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${EMPTY}"`);
});
afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS "${EMPTY}" WITH (FORCE)`);
});

const script = (file: string, db: string, ...args: string[]) =>
  run(process.execPath, ["--import", "tsx", file, ...args], { env: { ...process.env, DATABASE_URL: `${PG_BASE}/${db}`, PORT: "1" }, timeout: 60_000 });

describe("scripts before npm run setup", () => {
  it.each([
    ["scripts/cli.ts", ["shops", "list"]],
    ["workers/main.ts", []],
    ["server.ts", []],
    ["prisma/seed.ts", []],
  ] as const)("%s on an unmigrated database exits 1 and says to run npm run setup", async (file, args) => {
    await expect(script(file, EMPTY, ...args)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/not migrated[\s\S]*npm run setup/) });
  });

  it("on a database that does not exist, says so and what to run", async () => {
    await expect(script("scripts/cli.ts", MISSING, "keys", "list", "--shop", "x.myshopify.com")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/not reachable[\s\S]*npm run setup/),
    });
  });
});
