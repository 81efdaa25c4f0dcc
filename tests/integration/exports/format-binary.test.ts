// The subscriptions dataset written from binary COPY rows (app/domain/shared/format-binary.ts,
// docs/decisions/090-export-lines-from-binary-copy.md) against the JavaScript encoder, the
// reference (app/domain/shared/format.ts): the same bytes in CSV and JSONL for values that
// stress every rule (every control character, quotes, backslashes, formula starts, astral
// characters, money in 0-, 2- and 3-decimal currencies, negative and null amounts, null dates,
// millisecond timestamps, years far from 2000), across keyset page boundaries and with filters.
// The Admin API's subscription list (`json`, docs/decisions/091-subscription-list-from-binary-copy.md)
// is held to JSON.stringify of the surface's `subscriptionJson`, its reference, on the same rows.
import { Prisma } from "@prisma/client";
import fc from "fast-check";
import { DATASETS, SUBSCRIPTION_EXPORT_COLUMNS, subscriptionPageSql } from "../../../app/domain/exports/datasets.server";
import { encoder, type ExportFormat } from "../../../app/domain/shared/format";
import { binaryRenderer, hasQuote, jsonEscapes } from "../../../app/domain/shared/format-binary";
import { hotQuery } from "../../../app/infra/pg.server";
import { copyBinary } from "../../../app/infra/pg-copy.server";
import { streamDataset } from "../../../app/domain/exports/stream.server";
import type { SubscriptionFilterOptions } from "../../../app/domain/subscriptions/filters.server";
import { contractRowView, listSubscriptions, type ContractRow } from "../../../app/domain/subscriptions/reads.server";
import { subscriptionJson } from "../../../app/surfaces/admin/wire";
import { decodedPage, type Keyset } from "../../../app/domain/shared/paging.server";
import { type ContractSeed, createContracts, createShop, gid } from "../../support/fixtures";

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

/** The API list's reference: every row's view through `subscriptionJson` and JSON.stringify, as one array. */
async function apiReference(shopId: string, filters: SubscriptionFilterOptions): Promise<string> {
  const rows: ContractRow[] = [];
  for await (const page of ds.rows({ shopId, filters, now: NOW, pageSize: 1000 })) rows.push(...page);
  return JSON.stringify(rows.map((r) => subscriptionJson(contractRowView(r))));
}

/** The API list paged to the end with `limit`: the pages' items joined into one array; each page's continuation checked. */
async function viaApi(shopId: string, filters: SubscriptionFilterOptions, limit: number): Promise<string> {
  const items: string[] = [];
  let after: Keyset | null = null;
  do {
    const page = await listSubscriptions({ shopId, filters, page: { limit, after }, now: NOW });
    if (page.next) expect(decodedPage(page).data.length).toBe(limit);
    if (page.items.length) items.push(page.items.toString("utf8"));
    after = page.next;
  } while (after);
  return `[${items.join(",")}]`;
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

/** Timestamps a double of microseconds cannot hold exactly, two-digit years, years 0, BC and past 9999, the edges of 1970 and 2000. */
const FAR_DATES = [
  "1600-02-29 12:34:56.789",
  "1856-12-31 23:59:59.999",
  "1969-12-31 23:59:59.999",
  "1999-12-31 23:59:59.999",
  "2000-01-01 00:00:00",
  "2150-06-30 00:00:00.001",
  "9999-12-31 23:59:59.999",
  "0001-01-01 00:00:00",
  "0044-03-15 10:00:00.5",
  "12345-06-07 08:09:10.011",
  "0001-01-01 00:00:00 BC",
  "0044-03-15 10:00:00.5 BC",
];

describe("the subscriptions dataset written from binary COPY rows", () => {
  it("gives the JavaScript encoder's bytes for every kind of value, in CSV and JSONL, across pages", async () => {
    const shop = await createShop();
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
    const inserted = await createContracts(shop.id, seeds.length, (i) => seeds[i]);
    await createContracts(shop.id, 1, () => ({ createdByService: false }));
    for (const [i, at] of FAR_DATES.entries()) {
      await hotQuery(
        Prisma.sql`UPDATE contracts SET next_billing_at = ${at}::timestamp(3), updated_at = ${FAR_DATES[(i + 3) % FAR_DATES.length]}::timestamp(3)
          WHERE shop_id = ${shop.id} AND contract_gid = ${inserted[i].contractGid}`,
      );
    }

    for (const format of ["csv", "jsonl"] as const) {
      const reference = await viaJs(format, shop.id, {}, 1000);
      expect(reference.rows).toBe(TRICKY.length);
      for (const pageSize of [1, 2, 5, 1000]) {
        const got = await viaStream(format, shop.id, {}, pageSize);
        expect(got.rows).toBe(reference.rows);
        expect(Buffer.from(got.text).equals(Buffer.from(reference.text)), `${format}, pages of ${pageSize}`).toBe(true);
      }
    }
    const api = await apiReference(shop.id, {});
    for (const limit of [1, 2, 5, 250]) expect(await viaApi(shop.id, {}, limit), `API pages of ${limit}`).toBe(api);
    // JSONL stays parseable and the values are the exact strings.
    const lines = (await viaStream("jsonl", shop.id, {}, 3)).text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.product).sort()).toEqual([...TRICKY].sort());
  });

  it("agrees with the JavaScript encoder on random rows and filters (property)", async () => {
    const shop = await createShop();
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
    await createContracts(shop.id, rows.length, (i) => ({ ...rows[i], customerGid: gid("Customer") }));
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
          expect(await viaApi(shop.id, filters, pageSize)).toBe(await apiReference(shop.id, filters));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("grows a page's output past its first guess when escaping multiplies the text", async () => {
    // Control characters become six bytes each in JSON (\u0001), quotes two in CSV: a page of
    // them outgrows the output buffer sized from the COPY (twice its length).
    const shop = await createShop();
    await createContracts(shop.id, 300, (i) => ({
      productTitle: (i % 2 ? "\u0001" : '"').repeat(400 + i),
      orderName: '\u001f"'.repeat(50),
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
    }));
    const render = binaryRenderer("jsonl", SUBSCRIPTION_EXPORT_COLUMNS);
    const copy = await copyBinary(subscriptionPageSql(shop.id, {}, NOW, { after: null, upto: null }, 1000));
    expect(render(copy).bytes.length).toBeGreaterThan(copy.length * 2 + 4096);
    for (const format of ["csv", "jsonl"] as const) {
      const reference = await viaJs(format, shop.id, {}, 1000);
      const got = await viaStream(format, shop.id, {}, 1000);
      expect(got.rows).toBe(300);
      expect(got.text === reference.text, format).toBe(true);
    }
  });

  it("renders an empty selection as the header alone (CSV) or nothing (JSONL)", async () => {
    const shop = await createShop();
    const csv = await viaStream("csv", shop.id, {}, 10);
    expect(csv.rows).toBe(0);
    expect(csv.text).toBe(encoder("csv", ds.columns).start());
    expect((await viaStream("jsonl", shop.id, {}, 10)).text).toBe("");
  });

  it("continues a capped page from its last row's key", async () => {
    const shop = await createShop();
    await createContracts(shop.id, 5, (i) => ({ productTitle: `P${i}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 7)) }));
    const [third] = await hotQuery<{ created_at: Date; id: string }>(
      Prisma.sql`SELECT created_at, id FROM contracts WHERE shop_id = ${shop.id} ORDER BY created_at DESC, id DESC OFFSET 2 LIMIT 1`,
    );
    const render = binaryRenderer("csv", SUBSCRIPTION_EXPORT_COLUMNS);
    const page = render(await copyBinary(subscriptionPageSql(shop.id, {}, NOW, { after: null, upto: null }, 3)));
    expect(page.rows).toBe(3);
    expect(page.last).toEqual({ at: third.created_at, id: third.id });
    expect(
      page.bytes
        .toString("utf8")
        .split("\r\n")
        .filter(Boolean)
        .map((l) => l.split('","')[6]),
    ).toEqual(["P4", "P3", "P2"]);

    const empty = render(await copyBinary(subscriptionPageSql(shop.id, { product: "none" }, NOW, { after: null, upto: null }, 3)));
    expect(empty).toEqual({ bytes: Buffer.alloc(0), rows: 0, last: null, more: false });
  });

  it("refuses a COPY whose rows are not the columns it renders", async () => {
    const render = binaryRenderer("jsonl", SUBSCRIPTION_EXPORT_COLUMNS);
    const copy = await copyBinary(Prisma.sql`SELECT 1::int8, 'x'::text`);
    expect(() => render(copy)).toThrow(/binary COPY row of 2 fields/);
  });
});

describe("the four-bytes-at-once checks", () => {
  // Byte by byte, what each check stands for.
  const escapes = (b: number) => b < 0x20 || b === 0x22 || b === 0x5c;
  const word = (bytes: number[]) => ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;

  it("agree with the byte-by-byte rule for every byte value in every position", () => {
    // Neighbours that stress borrows: the bytes just above and below each boundary, 0x00 and 0xff.
    const fillers = [0x00, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xff, 0x41];
    for (let pos = 0; pos < 4; pos++) {
      for (let b = 0; b < 256; b++) {
        for (const f of fillers) {
          const bytes = [f, f, f, f];
          bytes[pos] = b;
          expect(jsonEscapes(word(bytes)), `${bytes}`).toBe(bytes.some(escapes));
          expect(hasQuote(word(bytes)), `${bytes}`).toBe(bytes.includes(0x22));
        }
      }
    }
  });

  it("agree with the byte-by-byte rule on random words", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), (bytes) => {
        expect(jsonEscapes(word(bytes))).toBe(bytes.some(escapes));
        expect(hasQuote(word(bytes))).toBe(bytes.includes(0x22));
      }),
      { numRuns: 20_000 },
    );
  });
});
