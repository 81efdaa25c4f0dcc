// Subscriptions: tabs, search by a customer's name and e-mail (read from Shopify), filters kept in
// the address, paging; open one and pause it from its detail page: the platform (simulator) holds
// it paused and so does the list. Cancel asks first. At 375 px the list starts on the first screen.
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

test("at 375 px the first subscription is on the first screen, with its customer's name", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-subs-phone");
  await openApp(page, shop);
  const grace = await simCall(request, "POST", `/shops/${shop}/customers`, { firstName: "Grace", lastName: "Hopper", email: "grace@e2e.test" });
  await simCall(request, "POST", `/shops/${shop}/contracts`, { customerId: grace.id, webhooks: false });
  cli("mirror", "reconcile", "--shop", shop);
  const app = await openApp(page, shop, "/app/subscriptions");
  const first = app
    .getByRole("row")
    .filter({ has: app.getByRole("link", { name: /^Subscription \d+$/ }) })
    .first();
  await expect(first).toContainText("Grace Hopper");
  await expect(first.getByRole("link")).toBeInViewport();
  // The simulated admin frames the app at the viewport's full height below its 44 px bar.
  expect((await page.locator("#app-iframe").boundingBox())!.height).toBeGreaterThanOrEqual(812 - 44);
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
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

  // the skip is undone: the charge is back on its date, in Shopify too, and the undo is spent
  await app.getByRole("button", { name: `Undo skip (back to ${said(next)})` }).click();
  await expect(page.getByRole("status").getByText("Skip undone")).toBeVisible();
  await expect(app.getByText(`Next charge: ${said(next)}`)).toBeVisible();
  expect((await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).nextBillingDate.slice(0, 10)).toBe(next);
  await expect(history).toContainText("Skip undone");
  await expect(app.getByRole("button", { name: /^Undo skip/ })).toHaveCount(0);

  // an item's quantity, edited through the same write as the API's line PATCH
  const lineId = (await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).lines[0].id;
  const quantity = app.getByRole("spinbutton", { name: /^Quantity of / });
  await quantity.fill("3");
  await app.getByRole("button", { name: "Update quantity" }).click();
  await expect(page.getByRole("status").getByText("Quantity updated")).toBeVisible();
  await expect
    .poll(async () => (await simCall(request, "GET", `/shops/${shop}/contracts/${number}`)).lines.find((l: { id: string }) => l.id === lineId)?.quantity)
    .toBe(3);
  await expect(history).toContainText("Item changed quantity 1 → 3");
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

test("at 375 px the detail page answers a customer: who, where it ships, the card, and a declined charge in words", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-detail-customer");
  await openApp(page, shop);
  const customer = await simCall(request, "POST", `/shops/${shop}/customers`, {
    firstName: "Grace",
    lastName: "Hopper",
    email: "grace@example.com",
    address: { address1: "1 Compiler Way", city: "Arlington", province: "Virginia", country: "United States", zip: "22201" },
    paymentMethod: { kind: "credit_card", brand: "visa", last4: "1881", expiryMonth: 7, expiryYear: 2031, billing: "INSUFFICIENT_FUNDS" },
  });
  const c = await simCall(request, "POST", `/shops/${shop}/contracts`, {
    customerId: customer.id,
    nextBillingDate: new Date(Date.now() - 3600_000).toISOString(),
    webhooks: false,
  });
  cli("mirror", "reconcile", "--shop", shop);
  cli("billing", "run", "--shop", shop);
  const number = String(c.id).split("/").pop()!;

  // The decline comes back as a webhook handled by a worker; open the page until it has been.
  let app = await openApp(page, shop, `/app/subscriptions/${number}`);
  await expect(async () => {
    app = await openApp(page, shop, `/app/subscriptions/${number}`);
    await expect(app.getByRole("list", { name: "Charges" })).toContainText("Failed", { timeout: 1000 });
  }).toPass({ timeout: 40_000 });
  await expect(app.getByRole("list", { name: "Charges" })).toContainText("The card has insufficient funds.");
  await expect(app.getByRole("list", { name: "Charges" })).not.toContainText("INSUFFICIENT_FUNDS");
  await expect(app.getByText("Grace Hopper").first()).toBeVisible();
  await expect(app.getByText("grace@example.com")).toBeVisible();
  await expect(app.locator("address")).toContainText("1 Compiler Way");
  await expect(app.locator("address")).toContainText("22201 Arlington");
  await expect(app.getByText("Visa ending in 1881, expires 07/2031")).toBeVisible();
  await expect(app.getByText("gid://shopify")).toHaveCount(0);
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);

  // The same failed payment leads the Risk Center, with its amount and the reason in words.
  const perCharge = /^Per charge: (\S+)/.exec((await app.getByText(/^Per charge: /).textContent()) ?? "")![1];
  await navigate(page, "Risk Center");
  const risk = app.getByText(`Subscription ${number}: ${perCharge}.`, { exact: false });
  await expect(risk).toBeVisible();
  await expect(risk).toContainText("The card has insufficient funds.");
  console.expectNone();
});
