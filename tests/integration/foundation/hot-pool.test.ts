// The hot-path pool reads Prisma's UTC timestamps as UTC whatever the server's time zone:
// otherwise a key's expiry would move by hours on a server not set to UTC.
import { randomUUID } from "node:crypto";
import { Prisma } from "@prisma/client";
import { prisma } from "../../../app/db.server";
import { authenticateKey, mintKey } from "../../../app/domain/keys.server";
import { hotQuery } from "../../../app/pg.server";

async function inTimeZone<T>(tz: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = tz;
  try {
    return await fn();
  } finally {
    process.env.TZ = before;
  }
}

it("reads timestamps back exactly, east and west of UTC", async () => {
  const at = new Date("2026-01-01T12:00:00.123Z");
  const shop = await prisma.shop.create({ data: { domain: `t-${randomUUID()}.myshopify.com`, installedAt: at } });
  for (const tz of ["America/New_York", "Asia/Tokyo", "UTC"]) {
    const [row] = await inTimeZone(tz, () => hotQuery<{ installed_at: Date }>(Prisma.sql`SELECT installed_at FROM shops WHERE id = ${shop.id}`));
    expect(row.installed_at.toISOString()).toBe(at.toISOString());
  }
});

it("a key that expires in an hour authenticates on a server nine hours ahead of UTC", async () => {
  const shop = await prisma.shop.create({ data: { domain: `t-${randomUUID()}.myshopify.com`, appPlan: "PRO" } });
  await prisma.session.create({ data: { id: `offline_${shop.domain}`, shop: shop.domain, state: "", accessToken: "x" } });
  const { key } = await mintKey({ shopId: shop.id, name: "tz", scopes: ["read:plans"], kind: "SECRET", expiresAt: new Date(Date.now() + 3600_000) });
  const result = await inTimeZone("Asia/Tokyo", () => authenticateKey(key));
  expect(result.ok).toBe(true);
});
