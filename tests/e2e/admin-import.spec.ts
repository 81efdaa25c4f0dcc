// Import page: a merchant uploads a migration file, reads the dry-run report (the bad
// row named by row and column), runs the import, watches its progress to the end and downloads
// the failed rows as an error file in the same format.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { migrationCsv, migrationRow } from "../support/migration-csv";
import { expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

test("upload, dry-run report, import, progress and the error file", async ({ page, request }) => {
  test.setTimeout(120_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-import");
  const app = await openApp(page, shop);
  const product = await simCall(request, "POST", `/shops/${shop}/products`, { title: "House Blend", variants: [{ title: "1 kg", price: "30.00" }] });
  const variantId = product.variantIds[0];
  const file = migrationCsv([migrationRow(1, { variantId, quantity: "2" }), migrationRow(2, { variantId, quantity: "0" })]);

  await navigate(page, "Import");
  await expect(app.locator("h1")).toHaveText("Import");
  await app.locator('input[type="file"]').setInputFiles({ name: "subscribers.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
  await app.getByRole("button", { name: "Check file" }).click();
  await expect(app.getByText("2 rows, 2 subscriptions: 1 to create, 0 already imported, 1 with errors.", { exact: false })).toBeVisible();
  await expect(app.getByRole("row").filter({ hasText: "Quantity must be a whole number of at least 1" })).toContainText("2");
  await expectAccessible(page);

  await app.getByRole("button", { name: "Import 1 subscriptions" }).click();
  await expect(app.getByText("2 of 2 subscriptions done: 1 created, 0 skipped as already imported, 1 failed")).toBeVisible({ timeout: 60_000 });
  await expect(app.getByText("Done", { exact: true })).toBeVisible();
  const contracts = await simCall<unknown[]>(request, "GET", `/shops/${shop}/contracts`);
  expect(contracts.length).toBe(1);

  const downloading = page.waitForEvent("download");
  await app.getByRole("button", { name: "Download error file" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("subscribers-errors.csv");
  const text = readFileSync(await download.path()).toString("utf8");
  const lines = text.split("\r\n").filter(Boolean);
  expect(lines.length).toBe(2);
  expect(lines[0]).toContain('"Import error"');
  expect(lines[1]).toContain("buyer2@example.com");
  expect(lines[1]).toContain("Quantity must be a whole number of at least 1");

  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalOverflow(page);
  console.expectNone();
});
