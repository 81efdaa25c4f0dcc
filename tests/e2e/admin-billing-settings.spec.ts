// Billing settings page (docs/decisions/081): the dunning policy and reminders are shown with
// their defaults, edited and kept; a bad schedule is refused on its field; and a declined renewal
// charged by `billing run` shows up as a contract in dunning.
import { expect, test } from "@playwright/test";
import { cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

test("the policy shows its defaults, saves a merchant's schedule and refuses a descending one", async ({ page, request }) => {
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-dunning");
  const app = await openApp(page, shop);
  await navigate(page, "Billing settings");
  await expect(app.locator("h1")).toHaveText("Billing settings");
  await expect(app.getByLabel("Retry after (days)")).toHaveValue("1, 3, 7");
  await expect(app.getByLabel("When the last retry fails")).toHaveValue("PAUSE");
  await expect(app.getByLabel("Days before each charge")).toHaveValue("3");
  await expect(app.getByText("No subscription is waiting for a payment retry.")).toBeVisible();
  await expectAccessible(page);

  await app.getByLabel("Retry after (days)").fill("5, 2");
  await app.getByRole("button", { name: "Save" }).click();
  await expect(app.getByText("retry days must be strictly ascending")).toBeVisible();

  await app.getByLabel("Retry after (days)").fill("2, 5");
  await app.getByLabel("When the last retry fails").selectOption("CANCEL");
  await app.getByLabel("Days before each charge").fill("5");
  await app.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Billing settings saved")).toBeVisible();

  await page.reload();
  await expect(app.locator("h1")).toHaveText("Billing settings");
  await expect(app.getByLabel("Retry after (days)")).toHaveValue("2, 5");
  await expect(app.getByLabel("When the last retry fails")).toHaveValue("CANCEL");
  await expect(app.getByLabel("Days before each charge")).toHaveValue("5");
  console.expectNone();
});

test("at 375 px a declined renewal charged by `billing run` is listed as in dunning", async ({ page, request }) => {
  test.setTimeout(60_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-declined");
  const app = await openApp(page, shop);
  const customer = await simCall(request, "POST", `/shops/${shop}/customers`, { paymentMethod: { kind: "credit_card", billing: "CARD_DECLINED" } });
  const contract = await simCall(request, "POST", `/shops/${shop}/contracts`, {
    customerId: customer.id,
    nextBillingDate: new Date(Date.now() - 3600_000).toISOString(),
    webhooks: false,
  });
  cli("mirror", "reconcile", "--shop", shop);
  const run = JSON.parse(cli("billing", "run", "--shop", shop));
  expect(run.charged).toMatchObject([{ contractId: contract.id, attempt: 1 }]);

  // The decline comes back as a signed webhook, handled by a worker; open the page until it has been.
  await expect(async () => {
    await openApp(page, shop, "/app/billing");
    await expect(app.locator("h1")).toHaveText("Billing settings");
    await expect(app.getByText("In dunning now: 1")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 40_000 });
  await expect(app.getByText(`Contract ${contract.id.split("/").pop()}: charge due`)).toContainText("The card was declined.");
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);
  console.expectNone();
});
