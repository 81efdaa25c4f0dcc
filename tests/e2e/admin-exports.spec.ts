// The Export Center: a merchant picks the subscriptions dataset with a status filter,
// watches the progress indicator, and downloads the CSV, whose rows are the Admin API's list for
// the same filter; a job created through the API shows up in the recent jobs; a shop below Pro
// sees the upgrade path, not the form. No console errors, no serious axe violations, usable at 375 px.
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

/** A Pro shop with contracts on the simulator, mirrored, and a key that reads subscriptions. */
async function proShopWithContracts(page: Page, request: APIRequestContext, name: string) {
  const shop = await newShop(request, name);
  const app = await openApp(page, shop); // installs the app (token exchange)
  const product = await simCall(request, "POST", `/shops/${shop}/products`, {
    title: 'Café "Crème", 1 kg',
    variants: [{ title: "Whole bean", price: "24.50" }],
  });
  const line = { lines: [{ variantId: product.variantIds[0], quantity: 1 }], webhooks: false };
  for (let i = 0; i < 4; i++) await simCall(request, "POST", `/shops/${shop}/contracts`, line);
  for (let i = 0; i < 3; i++) await simCall(request, "POST", `/shops/${shop}/contracts`, { ...line, status: "PAUSED" });
  cli("mirror", "reconcile", "--shop", shop);
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  const key = JSON.parse(cli("keys", "mint", "--shop", shop, "--name", "exports e2e", "--scopes", "read:subscriptions")).key as string;
  return { shop, app, key };
}

/** RFC 4180 as the exporter writes it: every field quoted, CRLF rows, a BOM first. */
function parseCsv(text: string): string[][] {
  expect(text.startsWith("\uFEFF")).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 1;
  while (i < text.length) {
    expect(text[i]).toBe('"');
    let value = "";
    i++;
    for (;;) {
      if (text[i] === '"' && text[i + 1] === '"') {
        value += '"';
        i += 2;
      } else if (text[i] === '"') {
        i++;
        break;
      } else value += text[i++];
    }
    row.push(value);
    if (text[i] === ",") i++;
    else {
      expect(text.slice(i, i + 2)).toBe("\r\n");
      i += 2;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

test("a merchant downloads the paused subscriptions as CSV, and its rows are the Admin API's list for the same filter", async ({ page, request }) => {
  test.setTimeout(120_000);
  const console = watchConsole(page);
  const { app, key } = await proShopWithContracts(page, request, "e2e-exp");

  await navigate(page, "Export Center");
  await expect(app.locator("h1")).toHaveText("Export Center");
  await expect(app.getByLabel("Dataset")).toHaveValue("subscriptions");
  await expectAccessible(page);
  await app.getByLabel("Status").selectOption("PAUSED");
  await app.getByLabel("Format").selectOption("csv");

  const downloading = page.waitForEvent("download");
  await app.getByRole("button", { name: "Download" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^subscriptions-\d{4}-\d{2}-\d{2}\.csv$/);
  // The progress indicator: a progress bar, and the rows counted as they arrived of the total.
  await expect(app.getByRole("progressbar")).toBeVisible();
  await expect(app.getByText(/^Done: 3 rows of 3 · /)).toBeVisible();
  await expect(app.getByText(`Saved ${download.suggestedFilename()}`)).toBeVisible();

  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  const [header, ...data] = rows;
  expect(header.slice(0, 3)).toEqual(["Contract ID", "Status", "Next billing at"]);
  const listed = await adminApi(request, key, "/subscriptions?status=PAUSED&limit=250");
  expect(listed.status).toBe(200);
  expect(listed.body.data).toHaveLength(3);
  // Same rows, same order (newest first), same values where the two shapes share a field.
  expect(data.map((r) => r[header.indexOf("Contract ID")])).toEqual(listed.body.data.map((s: { contract_id: string }) => s.contract_id));
  for (const [i, s] of listed.body.data.entries()) {
    const r = data[i];
    expect(r[header.indexOf("Status")]).toBe("PAUSED");
    expect(r[header.indexOf("Customer ID")]).toBe(s.customer_id);
    expect(r[header.indexOf("Product")]).toBe(s.product_title);
    expect(r[header.indexOf("Charge amount")]).toBe(s.charge_amount?.amount ?? "");
    expect(r[header.indexOf("Created at")]).toBe(s.created_at);
  }
  expect(data[0][header.indexOf("Product")]).toBe('Café "Crème", 1 kg');
  await expectAccessible(page);
  console.expectNone();
});

test("a job created through the API shows up in the recent jobs, at 375 px", async ({ page, request }) => {
  test.setTimeout(120_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const { app, key } = await proShopWithContracts(page, request, "e2e-expjob");
  const created = await adminApi(request, key, "/exports", {
    method: "POST",
    data: { dataset: "subscriptions", format: "jsonl", filters: { status: "ACTIVE" } },
  });
  expect(created.status).toBe(202);
  let job = created.body;
  for (let i = 0; i < 120 && job.status !== "ready" && job.status !== "failed"; i++) {
    await page.waitForTimeout(250);
    job = (await adminApi(request, key, `/exports/${created.body.id}`)).body;
  }
  expect(job.status).toBe("ready");
  expect(job.row_count).toBe(4);

  await navigate(page, "Export Center");
  await expect(app.locator("h1")).toHaveText("Export Center");
  const jobs = app.getByRole("list", { name: "Recent export jobs" });
  await expect(jobs.getByRole("listitem")).toHaveCount(1);
  await expect(jobs.getByRole("listitem").first()).toContainText("subscriptions · JSONL");
  await expect(jobs.getByRole("listitem").first()).toContainText("ready");
  await expect(jobs.getByRole("listitem").first()).toContainText(
    `4 rows · ${job.byte_size < 1024 ? `${job.byte_size} B` : `${(job.byte_size / 1024).toFixed(1)} KB`}`,
  );
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  console.expectNone();
});

test("a shop below Pro sees the upgrade path instead of the form, at 375 px", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-expfree");
  const app = await openApp(page, shop);
  await navigate(page, "Export Center");
  await expect(app.locator("h1")).toHaveText("Export Center");
  await expect(app.getByText("Exports are part of the Pro plan")).toBeVisible();
  await expect(app.getByRole("button", { name: "Download" })).toHaveCount(0);
  await expect(app.getByLabel("Dataset")).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  await app.getByRole("link", { name: "Upgrade to Pro" }).click();
  await expect(app.locator("h1")).toHaveText("Plan");
  console.expectNone();
});
