// A dropped database connection costs no read an error and never the process: a real web
// process, its backends terminated by PostgreSQL under load, keeps serving; each read whose
// connection was lost is read again once on a fresh one (docs/decisions/093).
import { prisma } from "../../../app/db.server";

import { startWebProcess, type Child } from "../../support/processes";
import { rawRequest } from "../../support/raw-http";
import { eventually } from "../../support/stack";
import { createContracts, createKey, createPlanGroup, createShop } from "../../support/fixtures";

const port = Number(process.env.PORT) + 80;
let web: Child & { url: string };
afterEach(async () => {
  await web?.stop();
});

/** Ends every backend of this database except the one asking: what a failover or restart does. */
async function terminateBackends(): Promise<number> {
  const rows = await prisma.$queryRaw<Array<{ ok: boolean }>>`
    SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
  return rows.length;
}

it("database connections terminated under a steady read load: every read answers 200, and the process recovers by itself", async () => {
  web = await startWebProcess(port, { NODE_ENV: "production", LOG_LEVEL: "warn" });
  // Six readers, each with a shop of its own (a shop's bucket would otherwise answer 429), reading
  // through both pools: the key on the hot pg pool for every request, the plans through Prisma,
  // the subscription list as a binary COPY on the hot pool (docs/decisions/091).
  const readers = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const shop = await createShop();
      await createPlanGroup(shop.id);
      const [contract] = await createContracts(shop.id, 3);
      const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:plans", "read:subscriptions"] })).key;
      return { key, paths: ["/api/admin/v1/plans", "/api/admin/v1/subscriptions", `/api/admin/v1/subscriptions/${encodeURIComponent(contract.contractGid)}`] };
    }),
  );
  const statuses: number[] = [];
  let running = true;
  const loops = readers.map(async ({ key, paths }) => {
    for (let n = 0; running; n++) {
      const answer = fetch(`${web.url}${paths[n % paths.length]}`, { headers: { Authorization: `Bearer ${key}` } });
      // A reset connection counts as a failure (status 0), like any answer other than 200.
      statuses.push(await answer.then(async (res) => (await res.arrayBuffer(), res.status)).catch(() => 0));
    }
  });
  try {
    for (let round = 0; round < 5; round++) {
      // Kill every backend of the database once more reads have been answered since the last kill.
      const seen = statuses.length;
      await eventually(async () => statuses.length >= seen + 30, 60_000);
      expect(await terminateBackends(), web.output().slice(-3000)).toBeGreaterThan(0);
    }
    const seen = statuses.length;
    await eventually(async () => statuses.length >= seen + 30, 60_000);
  } finally {
    running = false;
    await Promise.all(loops);
  }
  const failed = statuses.filter((s) => s !== 200);
  const errors = web
    .output()
    .split("\n")
    .filter((line) => /"level":"error"|Error:/.test(line));
  expect({ requests: statuses.length, failed, errors }).toEqual({ requests: statuses.length, failed: [], errors: [] });
  expect(web.proc.exitCode, web.output()).toBeNull();
  expect(web.output()).toMatch(/connection lost/);
}, 240_000);

it("answers every /api path with the envelope in production mode too", async () => {
  web = await startWebProcess(port, { NODE_ENV: "production", LOG_LEVEL: "warn" });
  for (const path of ["/api/admin/v1/subscriptions/%zz", "/api/admin/v1/x%0Ay", "/api/admin/v2/subscriptions", "/api/admin/v1/plans?_data=root"]) {
    const answer = await rawRequest(web.url, "GET", path);
    expect(answer.headers["content-type"], `${path}: ${answer.text}`).toMatch(/^application\/json/);
    expect([401, 404]).toContain(answer.status);
    expect(answer.text).not.toMatch(/<html|\bat .+:\d+:\d+/i);
  }
}, 180_000);
