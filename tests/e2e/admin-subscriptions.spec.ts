// Subscriptions: filter the mirror's contracts, page through them, open one and pause it from its
// detail page: the platform (simulator) holds it paused and so does the list. Cancel asks first.
import { expect, test } from "@playwright/test";
import { cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

test("filter, page, and pause a subscription from its detail page", async ({ page, request }) => {
  test.setTimeout(120_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-subs");
  const app = await openApp(page, shop);
  const tea = await simCall(request, "POST", `/shops/${shop}/products`, { title: "Green tea", variants: [{ title: "100 g", price: "12.00" }] });
  const coffee = await simCall(request, "POST", `/shops/${shop}/products`, { title: "Dark roast", variants: [{ title: "1 kg", price: "30.00" }] });
  const line = (variantId: string) => ({ lines: [{ variantId, quantity: 1 }], webhooks: false });
  const teaContract = await simCall(request, "POST", `/shops/${shop}/contracts`, line(tea.variantIds[0]));
  await simCall(request, "POST", `/shops/${shop}/contracts`, { ...line(coffee.variantIds[0]), status: "PAUSED" });
  for (let i = 0; i < 27; i++) await simCall(request, "POST", `/shops/${shop}/contracts`, line(coffee.variantIds[0]));
  cli("mirror", "reconcile", "--shop", shop);
  const teaNumber = String(teaContract.id).split("/").pop()!;

  await navigate(page, "Subscriptions");
  await expect(app.locator("h1")).toHaveText("Subscriptions");
  const items = app.getByRole("listitem").filter({ has: app.getByRole("heading", { name: /^Subscription \d+$/ }) });
  await expect(items).toHaveCount(25); // one page
  await app.getByRole("button", { name: "Next page" }).click();
  await expect(items).toHaveCount(4);
  await expect(app.getByRole("button", { name: "Next page" })).toHaveCount(0);
  await app.getByRole("button", { name: "First page" }).click();
  await expect(items).toHaveCount(25);
  await expectAccessible(page);

  // filters: product, then status
  await app.getByLabel("Product").fill("tea");
  await app.getByRole("button", { name: "Apply filters" }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(`Subscription ${teaNumber}`);
  await app.getByLabel("Product").fill("");
  await app.getByLabel("Status").selectOption("PAUSED");
  await app.getByRole("button", { name: "Apply filters" }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText("Paused");

  // The same view by its address, as a bookmark or a reload opens it: Shopify's admin adds its
  // frame parameters (embedded, shop, host, id_token, locale), and the page reads only its own.
  const bookmarked = await openApp(page, shop, "/app/subscriptions?status=PAUSED");
  await expect(bookmarked.getByText(/Unknown filter/)).toHaveCount(0);
  const bookmarkedItems = bookmarked.getByRole("listitem").filter({ has: bookmarked.getByRole("heading", { name: /^Subscription \d+$/ }) });
  await expect(bookmarkedItems).toHaveCount(1);
  await expect(bookmarkedItems.first()).toContainText("Paused");
  await app.getByLabel("Amount from").fill("abc");
  await app.getByRole("button", { name: "Apply filters" }).click();
  await expect(app.getByText('amount_min "abc" is not a non-negative decimal amount')).toBeVisible();
  await app.getByRole("button", { name: "Clear" }).click();
  await expect(items).toHaveCount(25);

  // the detail page: lines, schedule, history; pause it
  await app.getByLabel("Search").fill(teaContract.id);
  await app.getByRole("button", { name: "Apply filters" }).click();
  await expect(items).toHaveCount(1);
  await items.first().getByRole("heading").click();
  await expect(app.locator("h1")).toHaveText(`Subscription ${teaNumber}`);
  await expect(app.getByRole("list", { name: "Lines" })).toContainText("1 × Green tea (100 g) at 12.00 USD");
  await expect(app.getByRole("list", { name: "History" })).toContainText("Started");
  await expectAccessible(page);
  await app.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status").getByText("Subscription paused")).toBeVisible();
  await expect(app.getByRole("button", { name: "Resume" })).toBeVisible();
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${teaNumber}`)).status).toBe("PAUSED");

  // cancel asks first; keeping it changes nothing
  await app.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(app.getByRole("dialog").getByText("Cancelling is final")).toBeVisible();
  await app.getByRole("dialog").getByRole("button", { name: "Keep it" }).click();
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${teaNumber}`)).status).toBe("PAUSED");

  // the list shows it paused
  await app.getByRole("link", { name: "Subscriptions" }).first().click();
  await expect(app.locator("h1")).toHaveText("Subscriptions");
  await app.getByLabel("Status").selectOption("PAUSED");
  await app.getByRole("button", { name: "Apply filters" }).click();
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: `Subscription ${teaNumber}` })).toContainText("Paused");
  console.expectNone();
});

test("resume, reschedule, skip and cancel with confirmation, at 375 px", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-detail");
  await openApp(page, shop);
  const c = await simCall(request, "POST", `/shops/${shop}/contracts`, {
    status: "PAUSED",
    webhooks: false,
    billingPolicy: { interval: "MONTH", intervalCount: 1 },
  });
  cli("mirror", "reconcile", "--shop", shop);
  const number = String(c.id).split("/").pop()!;
  const app = await openApp(page, shop, `/app/subscriptions/${number}`);
  await expect(app.locator("h1")).toHaveText(`Subscription ${number}`);
  await expectNoHorizontalOverflow(page);

  await app.getByRole("button", { name: "Resume" }).click();
  await expect(app.getByRole("button", { name: "Pause" })).toBeVisible();
  const next = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  await app.getByLabel("Move the next charge to").fill(next);
  await app.getByRole("button", { name: "Reschedule" }).click();
  await expect(app.getByText(`Next charge: ${next}`)).toBeVisible();
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).nextBillingDate.slice(0, 10)).toBe(next);
  await app.getByRole("button", { name: "Skip next charge" }).click();
  await expect(app.getByText(`Next charge: ${next}`)).toHaveCount(0);

  await app.getByRole("button", { name: "Cancel subscription" }).click();
  await expectAccessible(page);
  await app.getByRole("dialog").getByRole("button", { name: "Cancel subscription" }).click();
  await expect(app.getByText("This subscription has ended; it cannot be changed.")).toBeVisible();
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).status).toBe("CANCELLED");
  console.expectNone();
});
