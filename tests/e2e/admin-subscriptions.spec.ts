// Subscriptions: tabs, search by a customer's name and e-mail (read from Shopify), filters kept in
// the address, paging; open one and pause it from its detail page: the platform (simulator) holds
// it paused and so does the list. Cancel asks first. Resume, reschedule, skip and cancel at 375 px.
// The walk a merchant takes through them (deep link, search, Failed, the detail page, skip undone,
// a quantity edited, the Risk Center, on a phone's first screen) is tests/e2e/merchant-journey.spec.ts.
import { expect, test } from "@playwright/test";
import { cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

test("tabs, search by customer name and e-mail, filters in the address, paging, and pause from the detail page", async ({ page, request }) => {
  test.setTimeout(150_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-subs");
  const app = await openApp(page, shop);
  const tea = await simCall(request, "POST", `/shops/${shop}/products`, { title: "Green tea", variants: [{ title: "100 g", price: "12.00" }] });
  const coffee = await simCall(request, "POST", `/shops/${shop}/products`, { title: "Dark roast", variants: [{ title: "1 kg", price: "30.00" }] });
  const ada = await simCall(request, "POST", `/shops/${shop}/customers`, { firstName: "Ada", lastName: "Lovelace", email: "ada.lovelace@e2e.test" });
  const line = (variantId: string) => ({ lines: [{ variantId, quantity: 1 }], webhooks: false });
  const teaContract = await simCall(request, "POST", `/shops/${shop}/contracts`, { ...line(tea.variantIds[0]), customerId: ada.id });
  await simCall(request, "POST", `/shops/${shop}/contracts`, { ...line(coffee.variantIds[0]), status: "PAUSED" });
  await simCall(request, "POST", `/shops/${shop}/contracts`, { ...line(coffee.variantIds[0]), status: "FAILED" });
  for (let i = 0; i < 26; i++) await simCall(request, "POST", `/shops/${shop}/contracts`, line(coffee.variantIds[0]));
  cli("mirror", "reconcile", "--shop", shop);
  const teaNumber = String(teaContract.id).split("/").pop()!;

  await navigate(page, "Subscriptions");
  await expect(app.locator("h1")).toHaveText("Subscriptions");
  const rows = app.getByRole("row").filter({ has: app.getByRole("link", { name: /^Subscription \d+$/ }) });
  await expect(rows).toHaveCount(25); // one page
  await app.getByRole("button", { name: "Next page" }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: `Subscription ${teaNumber}` })).toContainText("Ada Lovelace"); // the oldest
  await expect(app.getByRole("button", { name: "Next page" })).toBeDisabled();
  await app.getByRole("button", { name: "First page" }).click();
  await expect(rows).toHaveCount(25);
  await expectAccessible(page);

  // tabs: Paused, Failed (the mirror's FAILED contracts, which the merchant must find)
  await app.getByRole("tab", { name: "Paused" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Paused");
  await app.getByRole("tab", { name: "Failed" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Failed");

  // The same view by its address, as a bookmark or a reload opens it: Shopify's admin adds its
  // frame parameters (embedded, shop, host, id_token, locale), and the page reads only its own.
  const bookmarked = await openApp(page, shop, "/app/subscriptions?status=PAUSED");
  await expect(bookmarked.getByText(/Unknown filter/)).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Paused");
  await expect(app.getByRole("tab", { name: "Paused" })).toHaveAttribute("aria-selected", "true");

  // search: by a customer's name and by their e-mail (read from Shopify), and by product
  await app.getByRole("tab", { name: "All" }).click();
  await expect(rows).toHaveCount(25);
  const search = app.getByPlaceholder("Search by customer name, e-mail, product or order");
  if (!(await search.isVisible())) await app.getByRole("button", { name: "Search and filter" }).click();
  await search.fill("ada love");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Subscription ${teaNumber}`);
  await expect(rows.first()).toContainText("ada.lovelace@e2e.test");
  await search.fill("ada.lovelace@e2e.test");
  // the search is in the address (debounced), so the view can be bookmarked
  const frameQuery = () => app.locator("html").evaluate(() => new URLSearchParams(window.location.search).get("q"));
  await expect.poll(frameQuery).toBe("ada.lovelace@e2e.test");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Green tea");
  await search.fill("green");
  await expect(rows).toHaveCount(1);
  await search.fill("nobody-by-this-name");
  await expect(app.getByText("No subscriptions match.")).toBeVisible();
  await app.getByRole("button", { name: "Clear" }).first().click();
  await expect(rows).toHaveCount(25);

  // a filter from the popover, kept in the address; a bad value is refused in words
  await app.getByRole("button", { name: "Add filter" }).click();
  await app.getByRole("menuitem", { name: "Amount from" }).click();
  await app.getByRole("textbox", { name: "Amount from" }).fill("abc");
  await expect(app.getByText("“Amount from” must be an amount, like 25 or 25.50.")).toBeVisible();
  await expect(app.getByText(/amount_min/)).toHaveCount(0);
  await app.getByRole("textbox", { name: "Amount from" }).fill("20");
  await expect(rows).toHaveCount(25);
  await expect(rows.filter({ hasText: "Green tea" })).toHaveCount(0);

  // the detail page: lines, schedule, history; pause it
  await openApp(page, shop, `/app/subscriptions?q=${encodeURIComponent(teaContract.id)}`);
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link").click();
  await expect(app.locator("h1")).toHaveText(`Subscription ${teaNumber}`);
  await expect(app.getByText("1 × Green tea (100 g) at $12.00")).toBeVisible();
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
  await app.getByRole("tab", { name: "Paused" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Subscription ${teaNumber}` })).toContainText("Paused");
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
  // Dates as the merchant reads them, in the shop's time zone (the simulator's shops are on UTC).
  const said = (day: string) => new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" }).format(new Date(`${day}T00:00:00Z`));
  await app.getByLabel("Move the next charge to").fill(next);
  await app.getByRole("button", { name: "Reschedule" }).click();
  await expect(app.getByText(`Next charge: ${said(next)}`)).toBeVisible();
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).nextBillingDate.slice(0, 10)).toBe(next);
  await app.getByRole("button", { name: "Skip next charge" }).click();
  await expect(app.getByText(`Next charge: ${said(next)}`)).toHaveCount(0);
  const history = app.getByRole("list", { name: "History" });
  await expect(history).toContainText(`Next charge skipped from ${said(next)}`);
  await expect(history).toContainText("by staff");

  // a quantity out of range is refused in words (an edit that goes through: the merchant's journey)
  const quantity = app.getByRole("spinbutton", { name: /^Quantity of / });
  await quantity.fill("0");
  await app.getByRole("button", { name: "Update quantity" }).click();
  await expect(app.getByText("Enter a quantity between 1 and 100,000.")).toBeVisible();

  await app.getByRole("button", { name: "Cancel subscription" }).click();
  await expectAccessible(page);
  await app.getByRole("dialog").getByRole("button", { name: "Cancel subscription" }).click();
  await expect(app.getByText("This subscription has ended; it cannot be changed.")).toBeVisible();
  await expect(app.getByText(/Next charge:/)).toHaveCount(0);
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).status).toBe("CANCELLED");
  console.expectNone();
});
