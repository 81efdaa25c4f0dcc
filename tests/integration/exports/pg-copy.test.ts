// The export renderer's binary COPY reads (app/infra/pg-copy.server.ts, docs/decisions/090-export-lines-from-binary-copy.md):
// COPY takes no bind parameters, so values are written into the statement as literals; they
// must mean exactly what the same values mean as parameters, whatever characters they hold.
import { Prisma } from "@prisma/client";
import { DATASETS, subscriptionPageSql } from "../../../app/domain/exports/datasets.server";
import { encoder } from "../../../app/domain/shared/format";
import { streamDataset } from "../../../app/domain/exports/stream.server";
import type { SubscriptionFilterOptions } from "../../../app/domain/subscriptions/filters.server";
import { hotQuery } from "../../../app/infra/pg.server";
import { binaryRowsStart, copyBinary, inlineSql } from "../../../app/infra/pg-copy.server";
import { createContracts, createShop } from "../../support/fixtures";

const NOW = new Date("2026-06-15T12:00:00Z");
const HOSTILE = ["it's", "back\\slash", "\\'; DROP TABLE contracts; --", 'quo"te', "%_", "E'x'", "$1", "tab\tnew\nline", "\u{1F375}", ""];

describe("binary COPY reads", () => {
  it("writes every value as the literal that means what the parameter means", async () => {
    const values: unknown[] = [...HOSTILE, 0, -12.5, 123456789, true, false, null, new Date("2026-01-02T03:04:05.678Z"), HOSTILE, [1, 2, 3]];
    const sql = Prisma.sql`SELECT ${Prisma.join(
      values.map((v, i) =>
        v instanceof Date
          ? Prisma.sql`${v}::timestamp(3)::text AS c${Prisma.raw(String(i))}`
          : Array.isArray(v)
            ? Prisma.sql`${v}::${Prisma.raw(typeof v[0] === "number" ? "int[]" : "text[]")}::text AS c${Prisma.raw(String(i))}`
            : Prisma.sql`(${v})::text AS c${Prisma.raw(String(i))}`,
      ),
    )}`;
    const [asParameters] = await hotQuery<Record<string, string | null>>(sql);
    const [asLiterals] = await hotQuery<Record<string, string | null>>({ text: inlineSql(sql), values: [] });
    expect(asLiterals).toEqual(asParameters);
    expect(asParameters.c0).toBe("it's");
    expect(asParameters[`c${HOSTILE.length + 5}`]).toBeNull();
  });

  it("refuses a value it cannot write as a literal", () => {
    expect(() => inlineSql(Prisma.sql`SELECT ${{ a: 1 }}`)).toThrow(/cannot be written/);
    expect(() => inlineSql(Prisma.sql`SELECT ${Number.NaN}`)).toThrow(/cannot be written/);
  });

  it("filters with hostile values render the rows the JavaScript path selects, byte for byte", async () => {
    const shop = await createShop();
    await createContracts(shop.id, HOSTILE.length * 2, (i) => ({
      productTitle: `${HOSTILE[i % HOSTILE.length]} beans`,
      orderName: i % 2 ? HOSTILE[(i + 1) % HOSTILE.length] : null,
      frequencyLabel: HOSTILE[i % HOSTILE.length],
      chargeAmountCents: 100 * i,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
    const ds = DATASETS.subscriptions;
    const filterSets: SubscriptionFilterOptions[] = [
      ...HOSTILE.map((h) => ({ product: h })),
      ...HOSTILE.map((h) => ({ q: h })),
      ...HOSTILE.map((h) => ({ frequency: h })),
      { amountMin: "3", amountMax: "12.5", nextFrom: "2026-01-01", nextTo: "2027-01-01", customerGid: "gid://shopify/Customer/1'--" },
    ];
    for (const filters of filterSets) {
      const enc = encoder("jsonl", ds.columns);
      let js = "";
      for await (const page of ds.rows({ shopId: shop.id, filters, now: NOW, pageSize: 1000 })) for (const r of page) js += enc.row(r);
      let copied = "";
      for await (const chunk of streamDataset(ds, enc, { shopId: shop.id, filters, now: NOW, pageSize: 3 })) copied += chunk.text;
      expect(copied, JSON.stringify(filters)).toBe(js);
    }
    // The product filter matched something for the quote and the backslash (not only empty results).
    const quoted = await ds.rows({ shopId: shop.id, filters: { product: "it's" }, now: NOW, pageSize: 1000 }).next();
    expect(quoted.value?.length).toBeGreaterThan(0);
  });

  it("reads a capped page whole: its rows, in the dataset's order, ending at the trailer", async () => {
    const shop = await createShop();
    await createContracts(shop.id, 5, (i) => ({ productTitle: `P${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 7)) }));
    const copy = await copyBinary(subscriptionPageSql(shop.id, {}, NOW, { after: null, upto: null }, 3));
    // Walk the framing: three rows, then the trailer (-1) as the last two bytes.
    let at = binaryRowsStart(copy);
    const ids: string[] = [];
    for (let fields = copy.readInt16BE(at); fields !== -1; fields = copy.readInt16BE(at)) {
      at += 2;
      for (let f = 0; f < fields; f++) {
        const len = copy.readInt32BE(at);
        at += 4;
        if (f === fields - 1) ids.push(copy.toString("utf8", at, at + len));
        at += Math.max(len, 0);
      }
    }
    expect(at).toBe(copy.length - 2);
    const expected = await hotQuery<{ id: string }>(Prisma.sql`SELECT id FROM contracts WHERE shop_id = ${shop.id} ORDER BY created_at DESC, id DESC LIMIT 3`);
    expect(ids).toEqual(expected.map((r) => r.id));
    expect(() => binaryRowsStart(Buffer.from("not a copy at all, not at all"))).toThrow(/not a binary COPY/);
  });
});
