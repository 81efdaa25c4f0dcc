// Audit log page (docs/decisions/125-audit-log.md): a key minted on the API keys page is recorded
// with the staff member as its actor; that key's webhook endpoint create with the key as actor; the
// page filters by actor type, target and id search, pages, and works at 375 px without console
// errors or serious axe violations. The same trail is on GET /audit-events.
import { expect, test } from "@playwright/test";
import { adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, watchConsole } from "./admin-support";

test("the audit log shows who changed what: a staff member's key mint and that key's endpoint create, filterable, at 375 px", async ({ page, request }) => {
  test.setTimeout(180_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-audit");
  await openApp(page, shop);
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  await navigate(page, "API keys");
  const app = page.frameLocator("iframe#app-iframe");
  await app.getByLabel("Name").fill("Audit robot");
  for (const s of ["manage:webhooks", "read:audit"]) await app.getByRole("checkbox", { name: s, exact: true }).check();
  await app.getByRole("button", { name: "Mint key" }).click();
  const dialog = app.getByRole("dialog");
  const key = (await dialog.locator("input[readonly]").first().inputValue()).trim();
  expect(key).toMatch(/^svc_sk_/);
  await dialog.getByRole("button", { name: "Done" }).click();

  const created = await adminApi(request, key, "/webhooks/endpoints", {
    method: "POST",
    data: { url: "https://93.184.215.14/hooks", events: ["subscription.paused"] },
  });
  expect(created.status).toBe(201);
  const api = await adminApi(request, key, "/audit-events");
  expect(api.status).toBe(200);
  expect(api.body.data.map((e: { action: string }) => e.action)).toEqual(["webhook_endpoint.create", "api_key.mint"]);
  expect(JSON.stringify(api.body)).not.toContain(created.body.secret);

  await navigate(page, "Audit log");
  await expect(app.locator("h1")).toHaveText("Audit log");
  const table = app.getByRole("table");
  await expect(table.getByText("webhook_endpoint.create")).toBeVisible();
  await expect(table.getByText("api_key.mint")).toBeVisible();
  await expect(table.getByText("API key Audit robot", { exact: false })).toBeVisible();
  await expect(table.getByText(/Staff user \d+/)).toBeVisible();
  await expect(table.getByText("name: — → Audit robot")).toBeVisible();

  // Staff tab: only the mint
  await app.getByRole("tab", { name: "Staff" }).click();
  await expect(table.getByText("api_key.mint")).toBeVisible();
  await expect(table.getByText("webhook_endpoint.create")).toHaveCount(0);
  await app.getByRole("tab", { name: "All" }).click();
  await expect(table.getByText("webhook_endpoint.create")).toBeVisible();

  // search by the endpoint's id: only its create
  await app.getByRole("button", { name: /Search and filter/ }).click();
  await app.getByPlaceholder("Search by actor or target id").fill(created.body.id);
  await expect(table.getByText("api_key.mint")).toHaveCount(0);
  await expect(table.getByText("webhook_endpoint.create")).toBeVisible();
  await expectAccessible(page);

  await page.setViewportSize({ width: 375, height: 812 });
  await openApp(page, shop, "/app/audit?actor=api_key");
  await expect(app.getByRole("table").getByText("webhook_endpoint.create")).toBeVisible();
  await expect(app.getByRole("table").getByText("api_key.mint")).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  console.expectNone();
});
