// The hot-path pool reads Prisma's UTC timestamps as UTC whatever the server's time zone:
// otherwise a key's expiry would move by hours on a server not set to UTC.
import { Prisma } from "@prisma/client";
import { prisma } from "../../../app/db.server";
import { authenticateKey } from "../../../app/domain/keys/keys.server";
import { hotQuery, isoFromPgTimestamp } from "../../../app/infra/pg.server";
import { createKey, createShop } from "../../support/fixtures";

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
  const shop = await createShop({ appPlan: "FREE", installedAt: at, offlineSession: false });
  for (const tz of ["America/New_York", "Asia/Tokyo", "UTC"]) {
    const [row] = await inTimeZone(tz, () => hotQuery<{ installed_at: Date }>(Prisma.sql`SELECT installed_at FROM shops WHERE id = ${shop.id}`));
    expect(row.installed_at.toISOString()).toBe(at.toISOString());
  }
});

it("a key that expires in an hour authenticates on a server nine hours ahead of UTC", async () => {
  const shop = await createShop({ accessToken: "x" });
  const { key } = await createKey({ shopId: shop.id, name: "tz", scopes: ["read:plans"], kind: "SECRET", expiresAt: new Date(Date.now() + 3600_000) });
  const result = await inTimeZone("Asia/Tokyo", () => authenticateKey(key));
  expect(result.ok).toBe(true);
});

it("sends a Date parameter as its UTC instant, east and west of UTC, as Prisma does", async () => {
  const at = new Date("2026-01-01T00:00:00.123Z");
  const sql = Prisma.sql`SELECT ${at}::timestamp(3)::text AS t`;
  for (const tz of ["America/New_York", "Asia/Tokyo", "UTC"]) {
    const [viaHot] = await inTimeZone(tz, () => hotQuery<{ t: string }>(sql));
    const [viaPrisma] = await inTimeZone(tz, () => prisma.$queryRaw<Array<{ t: string }>>(sql));
    expect(viaHot.t, tz).toBe("2026-01-01 00:00:00.123");
    expect(viaPrisma.t, tz).toBe(viaHot.t);
  }
});

it("isoTimestamps reads every millisecond pattern PostgreSQL prints as toISOString prints it", async () => {
  // Whole seconds (no fraction printed), trailing zeros dropped (.1, .12), leading zeros (.001,
  // .010), every digit, a leap day, year boundaries and years below 1000 (printed with four digits).
  const instants = [
    "2026-01-01T00:00:00.000Z",
    "2026-01-01T00:00:00.100Z",
    "2026-01-01T00:00:00.120Z",
    "2026-01-01T00:00:00.123Z",
    "2026-01-01T00:00:00.001Z",
    "2026-01-01T00:00:00.010Z",
    "2026-01-01T00:00:00.999Z",
    "2028-02-29T23:59:59.987Z",
    "1999-12-31T23:59:59.500Z",
    "0999-06-15T08:07:06.050Z",
    ...Array.from({ length: 1000 }, (_, ms) => new Date(Date.UTC(2026, 10, 21, 15, 10, 5, ms)).toISOString()),
  ];
  const rows = await hotQuery<{ at: string; text: string }>(
    Prisma.sql`SELECT u AS at, u::text AS text
      FROM unnest(${instants}::text[]) AS t, LATERAL (SELECT (t::timestamptz AT TIME ZONE 'UTC')::timestamp(3) AS u) l`,
    { isoTimestamps: true },
  );
  expect(rows.map((r) => r.at)).toEqual(instants);
  // The text really took each shape (the cases above are not all printed with three digits).
  expect(new Set(rows.map((r) => r.text.length))).toEqual(new Set([19, 21, 22, 23]));
});

it("sends the Dates of an array parameter as UTC instants too", async () => {
  const at = [new Date("2026-01-01T00:00:00.123Z"), new Date("2026-07-01T23:59:59.999Z")];
  for (const tz of ["America/New_York", "Asia/Tokyo"]) {
    const [row] = await inTimeZone(tz, () => hotQuery<{ t: string[] }>(Prisma.sql`SELECT ${at}::timestamp(3)[]::text[] AS t`));
    expect(row.t, tz).toEqual(["2026-01-01 00:00:00.123", "2026-07-01 23:59:59.999"]);
  }
});

it("reads years past 9999 and BC dates, which Date's ISO parser refuses", async () => {
  const [row] = await hotQuery<Record<string, Date>>(
    Prisma.sql`SELECT '12345-06-07 08:09:10.011'::timestamp(3) AS far, '0044-03-15 10:00:00.5 BC'::timestamp(3) AS bc,
      '0001-01-01 00:00:00 BC'::timestamp(3) AS year_zero, '2028-02-29 01:02:03'::timestamp(3) AS leap`,
  );
  expect(row.far.toISOString()).toBe("+012345-06-07T08:09:10.011Z");
  expect(row.bc.toISOString()).toBe("-000043-03-15T10:00:00.500Z");
  expect(row.year_zero.toISOString()).toBe("0000-01-01T00:00:00.000Z");
  expect(row.leap.toISOString()).toBe("2028-02-29T01:02:03.000Z");
  const [iso] = await hotQuery<Record<string, string>>(Prisma.sql`SELECT '12345-06-07 08:09:10.011'::timestamp(3) AS far`, { isoTimestamps: true });
  expect(iso.far).toBe("+012345-06-07T08:09:10.011Z");
  const [inf] = await hotQuery<Record<string, Date>>(Prisma.sql`SELECT 'infinity'::timestamp AS at`);
  expect(Number.isNaN(inf.at.getTime())).toBe(true);
});

it("isoFromPgTimestamp takes the Date path for text of another shape", () => {
  expect(isoFromPgTimestamp("2026-01-01 00:00:00.123456")).toBe("2026-01-01T00:00:00.123Z");
  expect(isoFromPgTimestamp("2026-01-01T00:00:00.5")).toBe("2026-01-01T00:00:00.500Z");
  // A BC date's text is as long as a fraction's: its shape, not its length, sends it to the Date path.
  expect(isoFromPgTimestamp("0044-03-15 10:00:00.5 BC")).toBe("-000043-03-15T10:00:00.500Z");
  expect(isoFromPgTimestamp("0044-03-15 10:00:00 BC")).toBe("-000043-03-15T10:00:00.000Z");
});
