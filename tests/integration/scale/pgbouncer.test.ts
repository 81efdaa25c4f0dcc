// Behind Debian's PgBouncer 1.18 in transaction mode (docs/decisions/145-connections-pgbouncer.md):
// a named prepared statement breaks there (the control), and with DATABASE_PGBOUNCER=true the app's
// hot-path statements (key authentication, the one-statement publish) and Prisma's interactive
// transactions run through it, many at once over fewer server connections than clients.
vi.hoisted(() => {
  // This file's own PgBouncer, on a port of this worker's block, in front of this worker's database.
  const port = Number(process.env.PORT) + 40;
  const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
  process.env.SCALE_PGBOUNCER_PORT = String(port);
  process.env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${port}/${database}`;
  process.env.DATABASE_PGBOUNCER = "true";
});
import { randomUUID } from "node:crypto";
import pg from "pg";
import { prisma } from "../../../app/db.server";
import { authenticateKey } from "../../../app/domain/keys/keys.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { startPgbouncer, type Pgbouncer } from "../../../scripts/pgbouncer";
import { createKey, createShop } from "../../support/fixtures";

let bouncer: Pgbouncer;
beforeAll(async () => {
  bouncer = await startPgbouncer({ port: Number(process.env.SCALE_PGBOUNCER_PORT), poolSize: 2 });
}, 120_000);
afterAll(async () => {
  // The pools stay open: their idle connections are dropped by the stop, which each pool's
  // error listener reports as a lost idle connection (app/db.server.ts, app/infra/pg.server.ts).
  await bouncer?.stop();
});

it("a named prepared statement fails behind transaction pooling (why the setting exists)", async () => {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
  pool.on("error", () => undefined);
  try {
    const results = await Promise.allSettled(
      Array.from({ length: 80 }, (_, i) => pool.query({ name: "scale-named", text: "SELECT $1::int AS n, pg_sleep(0.005)", values: [i] })),
    );
    const errors = results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /prepared statement "scale-named" (does not exist|already exists)/.test(e))).toBe(true);
  } finally {
    await pool.end();
  }
});

it("authenticates keys, publishes events and runs transactions through it with statement names off", async () => {
  const shop = await createShop();
  const { key } = await createKey({ shopId: shop.id, scopes: ["read:plans"] });
  // More at once than PgBouncer has server connections (2), from more client connections.
  const auths = await Promise.all(Array.from({ length: 60 }, () => authenticateKey(key)));
  expect(auths.every((a) => a.ok)).toBe(true);

  await prisma.webhookEndpoint.create({
    data: { shopId: shop.id, url: "https://hooks.example.com/in", secretCiphertext: "unused", events: ["subscription.paused"] },
  });
  const published = await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      publishEventNow({
        shopId: shop.id,
        type: "subscription.paused",
        sourceKey: `pgbouncer:${randomUUID()}`,
        data: {
          contract_id: `gid://shopify/SubscriptionContract/${n}`,
          customer_id: "gid://shopify/Customer/1",
          previous_status: "ACTIVE",
          new_status: "PAUSED",
        },
      }),
    ),
  );
  expect(published.every((p) => p.created && p.deliveryIds.length === 1)).toBe(true);

  const counts = await Promise.all(
    Array.from({ length: 10 }, () =>
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(42)`;
        return tx.event.count({ where: { shopId: shop.id } });
      }),
    ),
  );
  expect(counts.every((c) => c === 20)).toBe(true);

  // And it really went through PgBouncer: its SHOW STATS counts this database's transactions.
  const admin = new pg.Client({ connectionString: bouncer.url("pgbouncer") });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ database: string; total_xact_count: string }>("SHOW STATS");
    const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    expect(Number(rows.find((r) => r.database === database)?.total_xact_count ?? 0)).toBeGreaterThanOrEqual(90);
  } finally {
    await admin.end();
  }
});
