// Plan page: a Free shop upgrades to Pro through Shopify Billing's confirmation page (the
// simulator's), comes back to the Plan page inside admin, and its API key stops getting
// plan_upgrade_required. Declining keeps it on Free.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { API_KEY, SIM, adminApi, expectAccessible, navigate, newShop, openApp, watchConsole } from "./admin-support";

async function shopWithKey(page: Page, request: APIRequestContext, name: string) {
  const shop = await newShop(request, name);
  const app = await openApp(page, shop);
  await navigate(page, "API keys");
  await app.getByLabel("Name").fill("Backend");
  await app.getByRole("checkbox", { name: "read:subscriptions", exact: true }).check();
  await app.getByRole("button", { name: "Mint key" }).click();
  const key = await app.getByRole("dialog").getByLabel("API key").inputValue();
  await app.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  return { shop, app, key };
}

test("a Free shop upgrades to Pro through the billing confirmation and its key is let through", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  const { shop, app, key } = await shopWithKey(page, request, "e2e-bill");
  const refused = await adminApi(request, key, "/subscriptions");
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("plan_upgrade_required");

  await navigate(page, "Plan");
  await expect(app.locator("h1")).toHaveText("Plan");
  await expect(app.getByText("Developer API: off (needs Pro)")).toBeVisible();
  await expectAccessible(page);
  await app.getByRole("button", { name: "Upgrade to Pro" }).click();

  // Shopify's confirmation page, in the top frame
  await expect(page).toHaveURL(new RegExp(`^${SIM}/admin/${shop}/charges/\\d+/confirm$`));
  await expect(page.getByRole("heading", { name: "Approve subscription" })).toBeVisible();
  await expect(page.getByText("49.00 USD every 30 days")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Approve" }).click();

  // back on the Plan page inside admin
  await expect(page).toHaveURL(new RegExp(`^${SIM}/admin/${shop}/apps/${API_KEY}/app/plan`));
  await expect(app.locator("h1")).toHaveText("Plan");
  await expect(app.getByText("Developer API: on")).toBeVisible();
  expect((await adminApi(request, key, "/subscriptions")).status).toBe(200);

  const deliveries = await (await request.get(`${SIM}/_sim/shops/${shop}/webhook-deliveries`)).json();
  expect(deliveries.some((d: { topic: string; status: string }) => d.topic === "app_subscriptions/update" && d.status === "delivered")).toBe(true);
  console.expectNone();
});

test("declining the charge keeps the shop on Free", async ({ page, request }) => {
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const { shop, app, key } = await shopWithKey(page, request, "e2e-decline");
  await navigate(page, "Plan");
  await app.getByRole("button", { name: "Upgrade to Pro" }).click();
  await expect(page.getByRole("heading", { name: "Approve subscription" })).toBeVisible();
  await page.getByRole("button", { name: "Decline" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SIM}/admin/${shop}/apps/${API_KEY}/app/plan`));
  await expect(app.getByText("Developer API: off (needs Pro)")).toBeVisible();
  expect((await adminApi(request, key, "/subscriptions")).body.error.code).toBe("plan_upgrade_required");
  console.expectNone();
});
