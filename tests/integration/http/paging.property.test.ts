// Property: paging a filtered list to the end with the kernel's keyset helper yields every
// matching row exactly once, in (created_at desc, id desc) order, whatever the page size and
// whatever rows are inserted while paging. Real Postgres rows (api_keys of a fresh shop).
import fc from "fast-check";
import { prisma } from "../../../app/db.server";
import { afterWhere, KEYSET_ORDER } from "../../../app/domain/shared/paging.server";
import { keysetPage } from "../../../app/http/cursor.server";
import { createShop } from "../../support/fixtures";

type Row = { id: string; createdAt: Date; kind: "SECRET" | "PUBLISHABLE" };
const BASE = Date.UTC(2026, 0, 1);

const rowArb = fc.record({
  id: fc.stringMatching(/^[0-9a-f]{24}$/),
  // Few distinct instants, so ties on created_at (broken by id) are common.
  t: fc.integer({ min: 0, max: 12 }),
  kind: fc.constantFrom("SECRET" as const, "PUBLISHABLE" as const),
});

function cmp(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

async function insert(shopId: string, rows: Array<{ id: string; t: number; kind: Row["kind"] }>) {
  if (!rows.length) return;
  await prisma.apiKey.createMany({
    data: rows.map((r) => ({ id: r.id, shopId, kind: r.kind, name: "p", scopes: [], salt: "s", secretHash: "h", createdAt: new Date(BASE + r.t * 1000) })),
    skipDuplicates: true,
  });
}

describe("keyset paging (property)", () => {
  it("every matching row exactly once, in order, for any page size and concurrent inserts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(rowArb, { selector: (r) => r.id, maxLength: 60 }),
        fc.integer({ min: -5, max: 300 }), // page size as sent; <1 is refused, >250 clamped
        fc.constantFrom<Row["kind"] | null>("SECRET", "PUBLISHABLE", null),
        fc.array(fc.uniqueArray(rowArb, { selector: (r) => r.id, maxLength: 4 }), { maxLength: 8 }),
        async (rows, limit, filter, insertsPerPage) => {
          const shop = await createShop();
          await insert(shop.id, rows);
          const expected = (
            await prisma.apiKey.findMany({ where: { shopId: shop.id, ...(filter ? { kind: filter } : {}) }, select: { id: true, createdAt: true } })
          ).sort(cmp);
          const bind = `keys:${filter ?? ""}`;
          const seen: Array<{ id: string; createdAt: Date }> = [];
          let cursor: string | null = null;
          let page = 0;
          const sent = limit < 1 ? 1 : limit; // the helper refuses limit < 1 with invalid_request
          for (;;) {
            const out: { data: Array<{ id: string; createdAt: Date }>; next_cursor: string | null } = await keysetPage(
              { limit: String(sent), cursor },
              ({ after, take }) =>
                prisma.apiKey.findMany({
                  where: { shopId: shop.id, ...(filter ? { kind: filter } : {}), ...afterWhere(after) },
                  orderBy: KEYSET_ORDER,
                  take,
                  select: { id: true, createdAt: true },
                }),
              (r) => r,
              bind,
            );
            expect(out.data.length).toBeLessThanOrEqual(Math.min(sent, 250));
            seen.push(...out.data);
            // Rows inserted while paging (ids disjoint from the originals by a prefix)
            await insert(
              shop.id,
              (insertsPerPage[page++] ?? []).map((r) => ({ ...r, id: "f" + r.id.slice(1) })).filter((r) => !rows.some((o) => o.id === r.id)),
            );
            if (!out.next_cursor) break;
            cursor = out.next_cursor;
          }
          const ids = seen.map((r) => r.id);
          expect(new Set(ids).size).toBe(ids.length); // never twice
          for (let i = 1; i < seen.length; i++) expect(cmp(seen[i - 1], seen[i])).toBeLessThan(0); // strictly in order
          const seenIds = new Set(ids);
          for (const e of expected) expect(seenIds.has(e.id)).toBe(true); // every original match
          if (filter) {
            const kinds = await prisma.apiKey.findMany({ where: { id: { in: ids } }, select: { kind: true } });
            expect(kinds.every((k) => k.kind === filter)).toBe(true);
          }
          await prisma.shop.delete({ where: { id: shop.id } });
        },
      ),
      { numRuns: 40 },
    );
  });
});
