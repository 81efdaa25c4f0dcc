// Import presets (docs/decisions/151-import-presets.md): a CSV in Recharge's, Skio's, Loop's or
// Appstle's export layout is recognised by its columns, mapped, rewritten as this app's migration
// CSV, checked (dry run) and imported by the real worker into the simulator, with the variant,
// quantity, price, interval and next billing date of each row. A second import of the same file
// creates nothing (the other app's id is the import key).
import { prisma } from "../../../app/db.server";
import { applyMapping, csvHeader, detectPreset, presetMapping, type PresetId } from "../../../app/domain/imports/presets";
import { createImport, startImport } from "../../../app/domain/imports/start.server";
import { withoutGids } from "../../../app/embedded/import-center.server";
import { startStack, type Stack } from "../../support/stack";
import { importFinished, seedCatalogue } from "../../support/imports";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const num = (gid: string) => gid.split("/").pop()!;
const csv = (rows: string[][]) => rows.map((r) => r.map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(",")).join("\n") + "\n";

type Case = { preset: PresetId; file: (v1: string, v2: string) => string; currency?: string };

const CASES: Case[] = [
  {
    preset: "recharge",
    currency: "USD",
    file: (v1, v2) =>
      csv([
        [
          "subscription_id",
          "customer_email",
          "customer_first_name",
          "customer_last_name",
          "address_1",
          "city",
          "state",
          "zip",
          "country",
          "next_charge_scheduled_at",
          "order_interval_unit",
          "charge_interval_frequency",
          "shopify_variant_id",
          "product_title",
          "quantity",
          "price",
          "status",
        ],
        [
          "5001",
          "ada@example.com",
          "Ada",
          "Lovelace",
          "12 Harbour St",
          "Portland",
          "OR",
          "97201",
          "United States",
          "2027-02-01T00:00:00",
          "month",
          "1",
          num(v1),
          "House Blend",
          "2",
          "$12.50",
          "active",
        ],
        [
          "5002",
          "bob@example.com",
          "Bob",
          "Stone",
          "3 Mill Lane",
          "Leeds",
          "",
          "LS1 1AA",
          "United Kingdom",
          "2027-02-15",
          "week",
          "2",
          num(v2),
          "Green Tea",
          "1",
          "9.00",
          "ACTIVE",
        ],
      ]),
  },
  {
    preset: "skio",
    file: (v1, v2) =>
      csv([
        [
          "subscription_id",
          "customer_email",
          "first_name",
          "last_name",
          "shipping_address1",
          "shipping_city",
          "shipping_zip",
          "shipping_country_code",
          "currency_code",
          "next_billing_date",
          "billing_interval",
          "billing_interval_count",
          "variant_id",
          "quantity",
          "price",
          "status",
        ],
        [
          "sk_1",
          "ada@example.com",
          "Ada",
          "Lovelace",
          "12 Harbour St",
          "Portland",
          "97201",
          "us",
          "usd",
          "2027-02-01",
          "MONTH",
          "1",
          num(v1),
          "2",
          "12.50",
          "active",
        ],
        ["sk_2", "bob@example.com", "Bob", "Stone", "3 Mill Lane", "Leeds", "LS1 1AA", "GB", "usd", "2027-02-15", "WEEK", "2", num(v2), "1", "9.00", "paused"],
      ]),
  },
  {
    preset: "loop",
    file: (v1, v2) =>
      csv([
        [
          "shopify_contract_id",
          "customer_email",
          "shipping_address_1",
          "shipping_city",
          "shipping_zip",
          "shipping_country_code",
          "currency_code",
          "next_billing_date",
          "billing_policy_interval",
          "billing_policy_interval_count",
          "variant_id",
          "quantity",
          "current_price",
          "status",
        ],
        ["900001", "ada@example.com", "12 Harbour St", "Portland", "97201", "US", "USD", "2027-02-01", "month", "1", num(v1), "2", "12.50", "ACTIVE"],
        ["900002", "bob@example.com", "3 Mill Lane", "Leeds", "LS1 1AA", "GB", "USD", "2027-02-15", "weeks", "2", num(v2), "1", "9.00", "ACTIVE"],
      ]),
  },
  {
    preset: "appstle",
    file: (v1, v2) =>
      csv([
        [
          "subscriptionContractId",
          "status",
          "customerEmail",
          "customerFirstName",
          "deliveryAddress1",
          "deliveryCity",
          "deliveryZip",
          "deliveryCountryCode",
          "currencyCode",
          "nextBillingDate",
          "billingPolicyInterval",
          "billingPolicyIntervalCount",
          "variantId",
          "quantity",
          "currentPrice",
        ],
        [
          "123456789",
          "active",
          "ada@example.com",
          "Ada",
          "12 Harbour St",
          "Portland",
          "97201",
          "US",
          "USD",
          "2027-02-01T12:00:00.000+00:00",
          "MONTH",
          "1",
          v1,
          "2",
          "12.50",
        ],
        [
          "123456790",
          "active",
          "bob@example.com",
          "Bob",
          "3 Mill Lane",
          "Leeds",
          "LS1 1AA",
          "GB",
          "USD",
          "2027-02-15T12:00:00.000+00:00",
          "WEEK",
          "2",
          v2,
          "1",
          "9.00",
        ],
      ]),
  },
];

describe.each(CASES)("a $preset export", ({ preset, file, currency }) => {
  it("is recognised, mapped, checked and imported: two subscriptions with their lines and schedules, once", async () => {
    const target = await stack.installShop();
    const cat = await seedCatalogue(stack, target.domain, target.shopId);
    const v1 = cat.ids.get("variant:House Blend/250 g")!;
    const v2 = cat.ids.get("variant:Green Tea/Tin")!;
    const text = file(v1, v2);
    const header = csvHeader(text);
    expect(detectPreset(header)).toBe(preset);
    const mapped = applyMapping(text, presetMapping(preset, header), { currency });
    expect(mapped.rows).toBe(2);

    const { id, report } = await createImport(target.shopId, { fileName: `${preset}.csv`, text: mapped.text });
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ rows: 2, contracts: 2, toCreate: 2, withErrors: 0 });
    await startImport(target.shopId, id);
    expect(await importFinished(target.shopId, id)).toMatchObject({ status: "done", created: 2, failed: 0 });

    const sim = await stack.control.call<Array<Record<string, any>>>("GET", `${stack.control.shop(target.domain)}/contracts`); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(sim).toHaveLength(2);
    const byVariant = new Map(sim.map((c) => [c.lines[0].variantId, c]));
    expect(byVariant.get(v1)).toMatchObject({ currencyCode: "USD", billingPolicy: { interval: "MONTH", intervalCount: 1 } });
    expect(byVariant.get(v1)!.lines[0]).toMatchObject({ quantity: 2 });
    expect(byVariant.get(v1)!.nextBillingDate.slice(0, 10)).toBe("2027-02-01");
    expect(byVariant.get(v2)).toMatchObject({ billingPolicy: { interval: "WEEK", intervalCount: 2 } });

    // The same file again: every row is already imported.
    const again = await createImport(target.shopId, { fileName: `${preset}.csv`, text: applyMapping(text, presetMapping(preset, header), { currency }).text });
    expect(again.report).toMatchObject({ toCreate: 0, toSkip: 2 });
    expect(await prisma.migrationImport.count({ where: { shopId: target.shopId } })).toBe(2);
  });
});

describe("values in another app's words", () => {
  it("normalises statuses, prices, intervals given as '2 weeks', country names and numeric ids", () => {
    const text = csv([
      ["id", "email", "status", "price", "interval", "country", "variant", "next", "province"],
      ["1", "a@example.com", "canceled", "$1,022.50", "every 2 weeks", "Canada", "77", "2027-03-01 08:30", "QC"],
    ]);
    const out = applyMapping(text, {
      importKey: "id",
      email: "email",
      status: "status",
      linePrice: "price",
      billingInterval: "interval",
      shipCountry: "country",
      variantId: "variant",
      nextBillingAt: "next",
      shipProvince: "province",
    }).text;
    const [head, row] = out.trim().split("\n");
    const cells = Object.fromEntries(head.split(",").map((h, i) => [h, row.split(",")[i]]));
    expect(cells).toMatchObject({
      "Import key": "1",
      Status: "CANCELLED",
      "Line price": "1022.50",
      "Billing interval": "WEEK",
      "Billing interval count": "2",
      "Shipping country code": "CA",
      "Shipping province code": "QC",
      "Variant ID": "gid://shopify/ProductVariant/77",
      "Next billing at": "2027-03-01T08:30:00.000Z",
    });
  });

  it("the page says Shopify ids in words", () => {
    expect(withoutGids("gid://shopify/ProductVariant/99 is not a product variant of this shop")).toBe("variant 99 is not a product variant of this shop");
    expect(withoutGids("Variant ID must be gid://shopify/ProductVariant/…")).toBe("Variant ID must be a Shopify variant id (a number)");
  });
});
