// A dropped database connection costs at most the requests in flight, never the process
// (issue 14, item 1): a real web process, its backends terminated by PostgreSQL, keeps serving.
import { prisma } from "../../../app/db.server";
import { createAdminShop, createPlanGroup, secretKey } from "../../support/admin-factories";
import { startWebProcess, type Child } from "../../support/processes";
import { rawRequest } from "../../support/raw-http";
import { eventually } from "../../support/stack";

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

it("the web process survives its database connections being terminated, and recovers by itself", async () => {
  web = await startWebProcess(port, { NODE_ENV: "production", LOG_LEVEL: "warn" });
  const shop = await createAdminShop();
  await createPlanGroup(shop.id);
  const key = await secretKey(shop.id, ["read:plans"]);
  const list = () => fetch(`${web.url}/api/admin/v1/plans`, { headers: { Authorization: `Bearer ${key}` } });
  // Both pools of the web process (the hot pg pool for the key, Prisma's for the rows) hold
  // idle connections now.
  for (let i = 0; i < 5; i++) expect((await list()).status).toBe(200);

  for (let round = 0; round < 2; round++) {
    expect(await terminateBackends()).toBeGreaterThan(0);
    // The requests in flight at that moment may fail; the next ones succeed, with no restart.
    await eventually(async () => (await list()).status === 200, 60_000);
    for (let i = 0; i < 10; i++) expect((await list()).status).toBe(200);
    expect(web.proc.exitCode, web.output()).toBeNull();
  }
  expect(web.output()).toMatch(/idle database connection lost/);
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
