// The subscriptions dataset rendered by PostgreSQL (app/domain/exports/format-sql.ts,
// docs/decisions/068-export-renderer-in-sql.md) against the JavaScript encoder, the reference
// (app/domain/exports/format.ts): the same bytes in CSV and JSONL for values that stress every
// rule (every control character, quotes, backslashes, formula starts, astral characters, money
// in 0-, 2- and 3-decimal currencies, negative and null amounts, null dates, millisecond
// timestamps), across keyset page boundaries and with filters.
import fc from "fast-check";
import { DATASETS } from "../../../app/domain/exports/datasets.server";
import { encoder, type ExportFormat } from "../../../app/domain/exports/format";
import { streamDataset } from "../../../app/domain/exports/stream.server";
import type { SubscriptionFilterOptions } from "../../../app/domain/subscription-filters.server";
import { createAdminShop, gid, insertContracts, type ContractSeed } from "../../support/admin-factories";

const NOW = new Date("2026-06-15T12:00:00Z");
const ds = DATASETS.subscriptions;

/** The JavaScript path: the dataset's row objects through `encoder()`. */
async function viaJs(format: ExportFormat, shopId: string, filters: SubscriptionFilterOptions, pageSize: number) {
  const enc = encoder(format, ds.columns);
  let text = enc.start();
  let rows = 0;
  for await (const page of ds.rows({ shopId, filters, now: NOW, pageSize })) {
    for (const r of page) text += enc.row(r);
    rows += page.length;
  }
  return { text, rows };
}

/** What jobs and the Export Center produce: streamDataset, which takes the SQL-encoded pages. */
async function viaStream(format: ExportFormat, shopId: string, filters: SubscriptionFilterOptions, pageSize: number) {
  let text = "";
  let rows = 0;
  let chunks = 0;
  for await (const c of streamDataset(ds, encoder(format, ds.columns), { shopId, filters, now: NOW, pageSize })) {
    text += c.text;
    rows += c.rows;
    chunks++;
  }
  return { text, rows, chunks };
}

const CONTROLS = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join("");
const TRICKY = [
  `all controls ${CONTROLS} end`,
  'quote " and "" doubled',
  "back\\slash \\n not a newline \\u0000",
  "=SUM(A1:A2)",
  "+1",
  "-5",
  "@handle",
  "\tTab first",
  "\rCR first",
  "'already quoted",
  "Tea \u{1F375} \u2014 \u65e5\u672c \u00e9\u0301 \u2028 \u2029 \u007f",
  "",
  "comma, and\r\nCRLF inside",
  "</script><b>html</b>",
];

describe("the subscriptions dataset rendered by PostgreSQL", () => {
  it("gives the JavaScript encoder's bytes for every kind of value, in CSV and JSONL, across pages", async () => {
    const shop = await createAdminShop();
    const currencies = ["USD", "JPY", "KWD", "EUR", "BHD", "CLP", "usd"];
    const seeds: ContractSeed[] = TRICKY.map((t, i) => ({
      contractGid: `gid://shopify/SubscriptionContract/${700 + i}`,
      status: (["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED"] as const)[i % 4],
      productTitle: t,
      frequencyLabel: i % 3 ? TRICKY[(i + 5) % TRICKY.length] : null,
      orderName: i % 2 ? TRICKY[(i + 3) % TRICKY.length] : null,
      currencyCode: currencies[i % currencies.length],
      chargeAmountCents: [0, 1, 5, 99, 100, 1999, -250, 123456789, null][i % 9],
      monthlyAmountCents: [null, -1, 7, 1000, 5001][i % 5],
      billingInterval: i % 4 ? "MONTH" : null,
      billingIntervalCount: i % 4 ? i : null,
      nextBillingAt: i % 3 ? new Date(Date.UTC(2026, i % 12, 1 + i, i, 7, 9, i * 37)) : null,
      sellingPlanGroupGid: i % 2 ? `gid://shopify/SellingPlanGroup/${i}` : null,
      // Two rows share a created_at so the keyset's id tie-break is crossed at a page edge.
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 1) + Math.floor(i / 2) * 1001),
      updatedAt: new Date(Date.UTC(2026, 5, 1, 23, 59, 59, 999) - i),
    }));
    await insertContracts(shop.id, seeds.length, (i) => seeds[i]);
    await insertContracts(shop.id, 1, () => ({ createdByService: false }));

    for (const format of ["csv", "jsonl"] as const) {
      const reference = await viaJs(format, shop.id, {}, 1000);
      expect(reference.rows).toBe(TRICKY.length);
      for (const pageSize of [1, 2, 5, 1000]) {
        const got = await viaStream(format, shop.id, {}, pageSize);
        expect(got.rows).toBe(reference.rows);
        expect(Buffer.from(got.text).equals(Buffer.from(reference.text)), `${format}, pages of ${pageSize}`).toBe(true);
      }
    }
    // JSONL stays parseable and the values are the exact strings.
    const lines = (await viaStream("jsonl", shop.id, {}, 3)).text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.product).sort()).toEqual([...TRICKY].sort());
  });

  it("agrees with the JavaScript encoder on random rows and filters (property)", async () => {
    const shop = await createAdminShop();
    const text = fc.string({ unit: "binary", maxLength: 12 }).filter((s) => !s.includes("\u0000"));
    const seed = fc.record({
      status: fc.constantFrom("ACTIVE" as const, "PAUSED" as const, "CANCELLED" as const),
      productTitle: fc.option(text),
      orderName: fc.option(text),
      currencyCode: fc.constantFrom("USD", "JPY", "KWD"),
      chargeAmountCents: fc.option(fc.integer({ min: -100000, max: 100000 })),
      createdAt: fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }),
    });
    const rows = fc.sample(seed, 60);
    await insertContracts(shop.id, rows.length, (i) => ({ ...rows[i], customerGid: gid("Customer") }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ExportFormat>("csv", "jsonl"),
        fc.constantFrom<SubscriptionFilterOptions>({}, { status: "PAUSED" }, { product: "a" }, { amountMin: "1" }),
        fc.integer({ min: 1, max: 70 }),
        async (format, filters, pageSize) => {
          const a = await viaJs(format, shop.id, filters, 1000);
          const b = await viaStream(format, shop.id, filters, pageSize);
          expect(b.rows).toBe(a.rows);
          expect(b.text).toBe(a.text);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("renders an empty selection as the header alone (CSV) or nothing (JSONL)", async () => {
    const shop = await createAdminShop();
    const csv = await viaStream("csv", shop.id, {}, 10);
    expect(csv.rows).toBe(0);
    expect(csv.text).toBe(encoder("csv", ds.columns).start());
    expect((await viaStream("jsonl", shop.id, {}, 10)).text).toBe("");
  });
});
