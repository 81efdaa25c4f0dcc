// Migration import (docs/decisions/085-migration-import.md): the `migration` export of one shop
// imported into another creates service-owned contracts through the real GraphQL adapter and the
// simulator; the dry run writes nothing; bad rows are named by row and column; the same file twice
// creates nothing twice; THROTTLED answers are waited out; failed rows come back as an error file
// in the same format that imports once fixed.
import { prisma } from "../../../app/db.server";
import { MIGRATION_COLUMNS } from "../../../app/domain/exports/migration-columns";
import { parseCsvRecords } from "../../../app/domain/imports/file";
import { importErrorFile } from "../../../app/domain/imports/progress.server";
import { createImport, startImport } from "../../../app/domain/imports/start.server";
import { dryRun } from "../../../app/domain/imports/validate.server";
import { columnForPlatformField } from "../../../app/domain/imports/plan";
import { platformFor } from "../../../app/platform/index.server";
import { useStack } from "../../support/stack";
import { exportMigration, importFinished, mirrored, seedCatalogue, seedSubscribers, type Catalogue } from "../../support/imports";

vi.setConfig({ testTimeout: 180_000 });

const stack = useStack();

const MUTATIONS = ["customerSet", "customerCreate", "customerAddressCreate", "customerPaymentMethodRemoteCreate", "subscriptionContractAtomicCreate"];

/** The same file with the source shop's catalogue ids replaced by the target's (matched by name). */
function remap(text: string, from: Catalogue, to: Catalogue): string {
  let out = text;
  for (const [name, id] of from.ids) out = out.split(`"${id}"`).join(`"${to.ids.get(name)}"`);
  return out;
}

/** A CSV's rows as objects, with the columns that differ between shops by nature left out. */
function comparable(text: string, drop: string[]) {
  const [header, ...rows] = parseCsvRecords(text);
  return rows
    .map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]).filter(([h]) => !drop.includes(h))))
    .sort((a, b) => `${a.Email}|${a["Next billing at"]}|${a["Line position"]}`.localeCompare(`${b.Email}|${b["Next billing at"]}|${b["Line position"]}`));
}

async function sourceAndTarget(count = 6) {
  const source = await stack.installShop();
  const sourceCat = await seedCatalogue(stack, source.domain, source.shopId);
  await seedSubscribers(stack, source.domain, sourceCat, count);
  const target = await stack.installShop();
  const targetCat = await seedCatalogue(stack, target.domain, target.shopId);
  const file = remap(await exportMigration(stack, source.shopId), sourceCat, targetCat);
  return { source, target, sourceCat, targetCat, file };
}

async function importAndWait(shopId: string, fileName: string, text: string) {
  const { id, report } = await createImport(shopId, { fileName, text });
  await startImport(shopId, id);
  return { id, report, progress: await importFinished(shopId, id) };
}

describe("migration import", () => {
  it("round trip: the migration export imported into an empty shop reproduces every subscription, and its export is the same file modulo ids and creation", async () => {
    const { source, target, file } = await sourceAndTarget(6);
    const contracts = await prisma.contract.count({ where: { shopId: source.shopId } });
    expect(contracts).toBe(6);

    const { progress } = await importAndWait(target.shopId, "migration.csv", file);
    expect(progress).toMatchObject({ status: "done", contracts: 6, created: 6, skipped: 0, failed: 0 });
    await mirrored(stack, target.domain, target.shopId, 6);
    // Four customers for six contracts: a subscriber with two contracts is created once.
    const customers = await stack.control.call<unknown[]>("GET", `${stack.control.shop(target.domain)}/customers`);
    expect(customers.length).toBe(4);

    const again = await exportMigration(stack, target.shopId);
    // Ids of the new shop's contracts and customers, the days they were created, and the origin
    // order (an imported contract has none) are what differ; everything else is the same.
    const drop = ["Contract ID", "Customer ID", "Created at", "Order"];
    expect(comparable(again, drop)).toEqual(comparable(file, drop));
    expect(comparable(again, drop).length).toBe(parseCsvRecords(file).length - 1);
    // Statuses of every kind came across.
    const statuses = await prisma.contract.groupBy({ by: ["status"], where: { shopId: target.shopId }, _count: { _all: true } });
    expect(statuses.map((s) => s.status).sort()).toEqual(["ACTIVE", "CANCELLED", "EXPIRED", "FAILED", "PAUSED"]);
  });

  it("the JSONL twin imports the same way", async () => {
    const source = await stack.installShop();
    const sourceCat = await seedCatalogue(stack, source.domain, source.shopId);
    await seedSubscribers(stack, source.domain, sourceCat, 3);
    const target = await stack.installShop();
    const targetCat = await seedCatalogue(stack, target.domain, target.shopId);
    let jsonl = await exportMigration(stack, source.shopId, "jsonl");
    for (const [name, id] of sourceCat.ids) jsonl = jsonl.split(`"${id}"`).join(`"${targetCat.ids.get(name)}"`);
    const { progress } = await importAndWait(target.shopId, "migration.jsonl", jsonl);
    expect(progress).toMatchObject({ status: "done", created: 3, failed: 0 });
  });

  it("a dry run reports what would be created and writes nothing, on the platform or in the app", async () => {
    const { target, file } = await sourceAndTarget(4);
    const before = await stack.control.operations(target.domain);
    const report = await dryRun(target.shopId, { fileName: "migration.csv", text: file });
    expect(report).toMatchObject({ format: "csv", contracts: 4, toCreate: 4, toSkip: 0, withErrors: 0, newCustomers: 2, existingCustomers: 0, errors: [] });
    expect(report.items.every((i) => i.action === "create" && i.customer === "new")).toBe(true);
    const after = await stack.control.operations(target.domain);
    const mutations = after.slice(before.length).filter((o) => MUTATIONS.includes(o.operation));
    expect(mutations).toEqual([]);
    expect(await prisma.migrationImport.count({ where: { shopId: target.shopId } })).toBe(0);
    expect(await prisma.importedContract.count({ where: { shopId: target.shopId } })).toBe(0);
    const simContracts = await stack.control.call<unknown[]>("GET", `${stack.control.shop(target.domain)}/contracts`);
    expect(simContracts).toEqual([]);
  });

  it("bad rows are reported with their row and column, and only they are left out", async () => {
    const { target, file } = await sourceAndTarget(4);
    const [header, ...rows] = parseCsvRecords(file);
    const col = (label: string) => header.indexOf(label);
    // Row 1: a bad e-mail; row 2: quantity 0 and an unknown variant; the others stay good.
    rows[0][col("Email")] = "not-an-email";
    rows[1][col("Quantity")] = "0";
    rows[1][col("Variant ID")] = "gid://shopify/ProductVariant/999999999";
    const edited = [header, ...rows].map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(",")).join("\r\n") + "\r\n";
    const report = await dryRun(target.shopId, { fileName: "edited.csv", text: edited });
    expect(report.errors).toEqual(
      expect.arrayContaining([
        { row: 1, column: "Email", message: '"not-an-email" is not an e-mail address' },
        { row: 2, column: "Quantity", message: "Quantity must be a whole number of at least 1" },
        { row: 2, column: "Variant ID", message: "gid://shopify/ProductVariant/999999999 is not a product variant of this shop" },
      ]),
    );
    const { progress } = await importAndWait(target.shopId, "edited.csv", edited);
    expect(report.withErrors).toBeGreaterThan(0);
    expect(progress).toMatchObject({ status: "done", failed: report.withErrors, created: report.contracts - report.withErrors });
    expect(progress.failures.flatMap((f) => f.rows)).toEqual(expect.arrayContaining([1, 2]));

    // A header the importer does not know is refused as a whole.
    const renamed = edited.replace('"Email"', '"E-mail address"');
    const bad = await dryRun(target.shopId, { fileName: "renamed.csv", text: renamed });
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        { row: 0, column: "E-mail address", message: 'Unknown column "E-mail address"' },
        { row: 0, column: "Email", message: 'The file has no "Email" column' },
      ]),
    );
    expect(bad.contracts).toBe(0);
  });

  it("the same file twice creates nothing twice", async () => {
    const { target, file } = await sourceAndTarget(4);
    const first = await importAndWait(target.shopId, "migration.csv", file);
    expect(first.progress).toMatchObject({ status: "done", created: 4, skipped: 0 });
    const second = await importAndWait(target.shopId, "migration.csv", file);
    expect(second.report).toMatchObject({ toCreate: 0, toSkip: 4 });
    expect(second.progress).toMatchObject({ status: "done", created: 0, skipped: 4, failed: 0 });
    const simContracts = await stack.control.call<unknown[]>("GET", `${stack.control.shop(target.domain)}/contracts`);
    expect(simContracts.length).toBe(4);
  });

  it("THROTTLED answers are waited out and every contract is still created once", async () => {
    const { target, file } = await sourceAndTarget(4);
    // More refusals in a row than the GraphQL client retries by itself: the importer backs off.
    await stack.control.failNext(target.domain, { operation: "subscriptionContractAtomicCreate", throttled: 7 });
    const { progress } = await importAndWait(target.shopId, "migration.csv", file);
    expect(progress).toMatchObject({ status: "done", created: 4, failed: 0 });
    const throttled = await stack.control.operations(target.domain, { operation: "subscriptionContractAtomicCreate", outcome: "throttled" });
    expect(throttled.length).toBe(7);
    const simContracts = await stack.control.call<unknown[]>("GET", `${stack.control.shop(target.domain)}/contracts`);
    expect(simContracts.length).toBe(4);
  });

  it("a platform refusal fails only its contract; the error file holds its rows in the same format, and imports once fixed", async () => {
    const { target, file } = await sourceAndTarget(3);
    await stack.control.failNext(target.domain, {
      operation: "subscriptionContractAtomicCreate",
      userErrors: [
        { field: ["input", "lines", "0", "line", "quantity"], message: "Quantity must be greater than or equal to 1", code: "GREATER_THAN_OR_EQUAL_TO" },
      ],
    });
    const { id, progress } = await importAndWait(target.shopId, "migration.csv", file);
    expect(progress).toMatchObject({ status: "done", created: 2, failed: 1 });
    expect(progress.failures[0]).toMatchObject({ column: "Quantity", message: "Quantity must be greater than or equal to 1" });

    const errors = await importErrorFile(target.shopId, id);
    expect(errors!.fileName).toBe("migration-errors.csv");
    const [header, ...rows] = parseCsvRecords(errors!.body);
    expect(header).toEqual([...MIGRATION_COLUMNS.map((c) => c.label), "Import error"]);
    expect(rows.length).toBe(progress.failures[0].rows.length);
    expect(rows[0].at(-1)).toBe("Quantity must be greater than or equal to 1");
    expect(errors!.body.startsWith("\uFEFF")).toBe(true);

    // Re-imported as it is (nothing needed fixing but the platform's mood): created, and the rest skipped.
    const retry = await importAndWait(target.shopId, "migration-errors.csv", errors!.body);
    expect(retry.report.errors).toEqual([]);
    expect(retry.progress).toMatchObject({ status: "done", created: 1, failed: 0 });
    const simContracts = await stack.control.call<unknown[]>("GET", `${stack.control.shop(target.domain)}/contracts`);
    expect(simContracts.length).toBe(3);
  });

  it("payment methods: a remote reference is vaulted with customerPaymentMethodRemoteCreate; an empty one means manual billing", async () => {
    const { target, file } = await sourceAndTarget(2);
    const [header, ...rows] = parseCsvRecords(file);
    const col = (label: string) => header.indexOf(label);
    const first = rows[0][col("Contract ID")];
    for (const r of rows.filter((r) => r[col("Contract ID")] === first)) {
      r[col("Remote gateway")] = "stripe";
      r[col("Remote customer ID")] = "cus_123";
      r[col("Remote payment method ID")] = "pm_456";
    }
    const text = [header, ...rows].map((r) => r.map((c) => `"${c}"`).join(",")).join("\r\n") + "\r\n";
    const { progress } = await importAndWait(target.shopId, "payments.csv", text);
    expect(progress).toMatchObject({ status: "done", created: 2 });
    const sim = await stack.control.call<Array<{ paymentMethodId: string | null; customerId: string }>>(
      "GET",
      `${stack.control.shop(target.domain)}/contracts`,
    );
    const customers = await stack.control.call<
      Array<{ id: string; paymentMethods: Array<{ id: string; kind: string; gateway?: string; remotePaymentMethodId?: string }> }>
    >("GET", `${stack.control.shop(target.domain)}/customers`);
    const withMethod = sim.filter((c) => c.paymentMethodId);
    expect(withMethod.length).toBe(1);
    const method = customers.flatMap((c) => c.paymentMethods).find((m) => m.id === withMethod[0].paymentMethodId);
    expect(method).toMatchObject({ kind: "remote", gateway: "stripe", remotePaymentMethodId: "pm_456" });
    expect(sim.filter((c) => !c.paymentMethodId).length).toBe(1);
  });

  it("an existing Shopify payment method: the customer's own is attached; another customer's, a revoked one and an unknown one are named by the dry run with row and column, and nothing is created for them", async () => {
    const { target, file } = await sourceAndTarget(4);
    const [header, ...rows] = parseCsvRecords(file);
    const col = (label: string) => header.indexOf(label);
    const contractIds = [...new Set(rows.map((r) => r[col("Contract ID")]))];
    expect(contractIds.length).toBe(4);
    const emailOf = (contractId: string) => rows.find((r) => r[col("Contract ID")] === contractId)![col("Email")];
    // Two contracts per subscriber (the seed gives four contracts two customers).
    const [a, b] = [...new Set(contractIds.map(emailOf))];
    expect([a, b].every(Boolean)).toBe(true);
    const path = stack.control.shop(target.domain);
    type SimCustomer = { id: string; paymentMethods: { id: string }[] };
    const ada = await stack.control.call<SimCustomer>("POST", `${path}/customers`, {
      email: a,
      firstName: "Ada",
      lastName: "Vaulted",
      paymentMethod: { kind: "credit_card" },
    });
    const bea = await stack.control.call<SimCustomer>("POST", `${path}/customers`, {
      email: b,
      firstName: "Bea",
      lastName: "Revoked",
      paymentMethod: { kind: "paypal" },
    });
    const adaMethod = ada.paymentMethods[0].id;
    const beaMethod = bea.paymentMethods[0].id;
    await stack.control.call("POST", `${path}/payment-methods/${encodeURIComponent(beaMethod)}/revoke`);

    const contractOf = (email: string, nth: number) => contractIds.filter((c) => emailOf(c) === email)[nth];
    const choice = new Map([
      [contractOf(a, 0), adaMethod], // Ada's own: attached
      [contractOf(a, 1), "gid://shopify/CustomerPaymentMethod/999999999"], // unknown in this shop
      [contractOf(b, 0), adaMethod], // Ada's, on Bea's contract
      [contractOf(b, 1), beaMethod], // Bea's own, revoked
    ]);
    for (const r of rows) r[col("Payment method ID")] = choice.get(r[col("Contract ID")])!;
    const text = [header, ...rows].map((r) => r.map((c) => `"${c}"`).join(",")).join("\r\n") + "\r\n";
    const firstRow = (contractId: string) => rows.findIndex((r) => r[col("Contract ID")] === contractId) + 1;

    const report = await dryRun(target.shopId, { fileName: "vaulted.csv", text });
    expect(report).toMatchObject({ contracts: 4, toCreate: 1, withErrors: 3, newCustomers: 0, existingCustomers: 1 });
    expect(report.errors).toEqual(
      expect.arrayContaining([
        {
          row: firstRow(contractOf(a, 1)),
          column: "Payment method ID",
          message: "gid://shopify/CustomerPaymentMethod/999999999 is not a payment method of this shop",
        },
        { row: firstRow(contractOf(b, 0)), column: "Payment method ID", message: `${adaMethod} belongs to another customer of this shop, not ${b}` },
        {
          row: firstRow(contractOf(b, 1)),
          column: "Payment method ID",
          message: `${beaMethod} was revoked: give the previous processor's reference instead, or no payment method for manual billing`,
        },
      ]),
    );
    expect(report.errors.length).toBe(3);

    const before = (await stack.control.operations(target.domain)).length;
    const { progress } = await importAndWait(target.shopId, "vaulted.csv", text);
    expect(progress).toMatchObject({ status: "done", created: 1, failed: 3 });
    expect(progress.failures.every((f) => f.column === "Payment method ID")).toBe(true);
    const sim = await stack.control.call<Array<{ customerId: string; paymentMethodId: string | null }>>("GET", `${path}/contracts`);
    expect(sim).toEqual([expect.objectContaining({ customerId: ada.id, paymentMethodId: adaMethod })]);
    // Both customers existed: nothing was created for the refused rows, on the platform or off it.
    const mutations = (await stack.control.operations(target.domain)).slice(before).filter((o) => MUTATIONS.includes(o.operation));
    expect(mutations.map((o) => o.operation)).toEqual(["subscriptionContractAtomicCreate"]);
    expect(await prisma.importedContract.count({ where: { shopId: target.shopId } })).toBe(1);
  });

  it("Shopify's refusals of an existing payment method on subscriptionContractAtomicCreate: another customer's (CUSTOMER_MISMATCH), a revoked one and an unknown one (INVALID), each on the paymentMethodId field", async () => {
    const { target } = await sourceAndTarget(1);
    const path = stack.control.shop(target.domain);
    type SimCustomer = { id: string; paymentMethods: { id: string }[] };
    const ada = await stack.control.call<SimCustomer>("POST", `${path}/customers`, { email: "ada@example.com", paymentMethod: { kind: "credit_card" } });
    const bea = await stack.control.call<SimCustomer>("POST", `${path}/customers`, { email: "bea@example.com", paymentMethod: { kind: "shop_pay" } });
    await stack.control.call("POST", `${path}/payment-methods/${encodeURIComponent(bea.paymentMethods[0].id)}/revoke`);
    const variant = (await stack.control.call<Array<{ variants: { id: string }[] }>>("GET", `${path}/products`))[0].variants[0].id;
    const port = await platformFor(target.domain);
    const create = (customerId: string, paymentMethodId: string) =>
      port.createContract({
        customerId,
        paymentMethodId,
        currencyCode: "USD",
        status: "ACTIVE",
        nextBillingDate: "2031-01-01T12:00:00.000Z",
        interval: "MONTH",
        intervalCount: 1,
        shippingAddress: {
          firstName: "A",
          lastName: "B",
          company: null,
          address1: "1 Harbor Street",
          address2: null,
          city: "Toronto",
          province: null,
          provinceCode: "ON",
          zip: "M5V",
          country: null,
          countryCode: "CA",
          phone: null,
        },
        lines: [{ variantId: variant, quantity: 1, priceAmount: "10.00", sellingPlanId: null }],
        attributes: {},
      });
    const field = ["input", "contract", "paymentMethodId"];
    await expect(create(bea.id, ada.paymentMethods[0].id)).rejects.toMatchObject({
      kind: "invalid_request",
      code: "CUSTOMER_MISMATCH",
      field,
      message: "The payment method customer must be the same as the contract customer",
    });
    await expect(create(bea.id, bea.paymentMethods[0].id)).rejects.toMatchObject({ kind: "invalid_request", code: "INVALID", field });
    await expect(create(ada.id, "gid://shopify/CustomerPaymentMethod/999999999")).rejects.toMatchObject({ kind: "invalid_request", code: "INVALID", field });
    // The importer reads the column from the refusal's field.
    expect(columnForPlatformField(field)).toBe("Payment method ID");
    // And the method itself as the dry run sees it: revoked, with its customer.
    expect(await port.getPaymentMethodOwner(bea.paymentMethods[0].id)).toEqual({
      id: bea.paymentMethods[0].id,
      revoked: true,
      customerId: bea.id,
      email: "bea@example.com",
    });
    expect(await create(ada.id, ada.paymentMethods[0].id)).toMatchObject({ id: expect.stringMatching(/^gid:\/\/shopify\/SubscriptionContract\/\d+$/) });
    // Its subscription_contracts/create webhook reaches the mirror like any other.
    await mirrored(stack, target.domain, target.shopId, 1);
  });
});
