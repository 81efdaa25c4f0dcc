// The merchant's admin, walked as a merchant walks it, in Chromium at 1280 and 375 px (README,
// "Tests"): the Subscriptions page opened by its address with Shopify's frame
// parameters; a customer found by name and by e-mail; the Failed filter; a subscription that
// answers a customer (who, where it ships, the card, its charges); a skip undone; a quantity
// edited; the Risk Center's money (the declined payment with its amount, the card that expires
// before the next charge: docs/decisions/158); an MRR trend of twelve months; a settings form that
// warns before unsaved edits are left; another app's export mapped and imported; the example
// portal on the seeded demo. No console errors, no serious axe violations, nothing sideways at
// 375 px, the first subscription on a phone's first screen.
// One shop for both widths (tests/e2e/fixtures/seed-journey.ts), made once.
import { expect, test, type Page } from "@playwright/test";
import {
  APP,
  DEMO_SHOP,
  SIM,
  cli,
  expectAccessible,
  expectNoHorizontalOverflow,
  navigate,
  openApp,
  seed,
  seedDemo,
  simCall,
  watchConsole,
} from "./admin-support";

type Journey = { domain: string; expiring: string; declined: string };
let journey: Journey;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const out = seed("journey");
  journey = JSON.parse(out.split("\n").find((l) => l.startsWith('{"domain"'))!) as Journey;
  seed("analytics", journey.domain);
  seedDemo();
});

const numberOf = (gid: string) => gid.split("/").pop()!;
// Dates as the merchant reads them, in the shop's time zone (the simulator's shops are on UTC).
const said = (iso: string) => new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium" }).format(new Date(iso));

/** At phone widths the checks every page of the walk must pass, beside the console and axe. */
async function fits(page: Page, width: number) {
  if (width === 375) await expectNoHorizontalOverflow(page);
}

for (const width of [1280, 375]) {
  test(`the merchant's journey at ${width} px`, async ({ page, request }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    const console = watchConsole(page);
    const shop = journey.domain;
    const ada = numberOf(journey.expiring);
    const grace = numberOf(journey.declined);

    // 1. The Subscriptions page by its address, as a bookmark or Shopify admin's first load opens
    //    it (admin adds embedded, shop, host, id_token, locale): the list, no "Unknown filter".
    const app = await openApp(page, shop, "/app/subscriptions");
    await expect(app.locator("h1")).toHaveText("Subscriptions");
    await expect(app.getByText(/Unknown filter/)).toHaveCount(0);
    const rows = app.getByRole("row").filter({ has: app.getByRole("link", { name: /^Subscription \d+$/ }) });
    await expect(rows.first()).toBeVisible();
    await expect(rows.first().getByRole("link")).toBeInViewport(); // on a phone's first screen too
    // The simulated admin frames the app at the viewport's full height below its 44 px bar.
    if (width === 375) expect((await page.locator("#app-iframe").boundingBox())!.height).toBeGreaterThanOrEqual(812 - 44);
    await expectAccessible(page);
    await fits(page, width);

    // 2. A customer by name, then by e-mail (read from Shopify).
    const search = app.getByPlaceholder("Search by customer name, e-mail, product or order");
    if (!(await search.isVisible())) await app.getByRole("button", { name: "Search and filter" }).click();
    await search.fill("ada love");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Subscription ${ada}`);
    await search.fill("ada.lovelace@journey.test");
    const param = (name: string) => app.locator("html").evaluate((_, n) => new URLSearchParams(window.location.search).get(n), name);
    await expect.poll(() => param("q")).toBe("ada.lovelace@journey.test");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Ada Lovelace");
    await app.getByRole("button", { name: "Cancel" }).click(); // back from search to the tabs, unfiltered
    await expect.poll(() => param("q")).toBeNull();

    // 3. Filtered to Failed: Grace's subscription, whose payments were given up on.
    await app.getByRole("tab", { name: "Failed" }).click();
    await expect.poll(() => param("status")).toBe("FAILED");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Failed");
    await expect(rows.first()).toContainText("Grace Hopper");

    // 4. Opened, it answers a customer: who, where it ships, the card, the declined charge in words.
    await rows.first().getByRole("link").click();
    await expect(app.locator("h1")).toHaveText(`Subscription ${grace}`);
    await expect(app.getByText("grace.hopper@journey.test")).toBeVisible();
    await expect(app.locator("address")).toContainText("1 Compiler Way");
    await expect(app.getByText(/^Visa ending in 1881, expires 07\/\d{4}$/)).toBeVisible();
    const charges = app.getByRole("list", { name: "Charges" });
    await expect(charges).toContainText("Failed");
    await expect(charges).toContainText("The card has insufficient funds.");
    await expectAccessible(page);
    await fits(page, width);

    // 5. Ada's subscription: skip the next charge and undo the skip; Shopify holds the old date again.
    const detail = await openApp(page, shop, `/app/subscriptions/${ada}`);
    await expect(detail.locator("h1")).toHaveText(`Subscription ${ada}`);
    const next = (await simCall(request, "GET", `/shops/${shop}/contracts/${ada}`)).nextBillingDate as string;
    await detail.getByRole("button", { name: "Skip next charge" }).click();
    const history = detail.getByRole("list", { name: "History" });
    await expect(history).toContainText(`Next charge skipped from ${said(next)}`);
    await detail.getByRole("button", { name: `Undo skip (back to ${said(next)})` }).click();
    await expect(page.getByRole("status").getByText("Skip undone")).toBeVisible();
    await expect(detail.getByText(`Next charge: ${said(next)}`)).toBeVisible();
    expect((await simCall(request, "GET", `/shops/${shop}/contracts/${ada}`)).nextBillingDate.slice(0, 10)).toBe(next.slice(0, 10));

    // 6. An item's quantity, edited (the same write as the API's line PATCH).
    const quantity = detail.getByRole("spinbutton", { name: /^Quantity of / });
    const was = await quantity.inputValue();
    const to = String(Number(was) + 1);
    await quantity.fill(to);
    await detail.getByRole("button", { name: "Update quantity" }).click();
    await expect(page.getByRole("status").getByText("Quantity updated")).toBeVisible();
    await expect(history).toContainText(`Item changed quantity ${was} → ${to}`);
    expect((await simCall(request, "GET", `/shops/${shop}/contracts/${ada}`)).lines[0].quantity).toBe(Number(to));
    await fits(page, width);

    // 7. The Risk Center leads with money: Grace's declined payment with its amount and reason, and
    //    Ada's card, valid through this month, expiring before her next charge, with its amount.
    await navigate(page, "Risk Center");
    await expect(app.locator("h1")).toHaveText("Risk Center");
    const money = app.getByRole("listitem").filter({ hasText: `Grace Hopper’s subscription ${grace}: $24.00.` });
    await expect(money).toContainText("The card has insufficient funds.");
    const now = new Date();
    const validThrough = `${String(now.getUTCMonth() + 1).padStart(2, "0")}/${now.getUTCFullYear()}`;
    await expect(app.getByText(/expires? before the next charge: /)).toBeVisible();
    await expect(app.getByRole("listitem").filter({ hasText: `Ada Lovelace’s subscription ${ada}:` })).toContainText(
      `: $${(12 * Number(to)).toFixed(2)} due ${said(next)}; the card on file is valid through ${validThrough}.`,
    );
    await expectAccessible(page);
    await fits(page, width);

    // 8. MRR as a trend: twelve months.
    await navigate(page, "Analytics");
    await expect(app.locator("h1")).toHaveText("Analytics");
    const trend = app.getByRole("figure").first();
    await expect(trend.locator("svg")).toBeVisible();
    const label = (await trend.getAttribute("aria-label")) ?? "";
    expect(label).toMatch(/^MRR at each month's end/);
    expect(label.split(": ").slice(1).join(": ").split("; ")).toHaveLength(12);
    await fits(page, width);

    // 9. A settings form with an unsaved edit: leaving asks first, and leaving drops the edit.
    await navigate(page, "Billing settings");
    await expect(app.locator("h1")).toHaveText("Billing settings");
    const retry = app.getByLabel("Retry after (days)");
    await retry.fill("2, 4");
    await expect(page.getByRole("region", { name: "Unsaved changes" })).toBeVisible();
    await navigate(page, "Import");
    const leave = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
    await expect(leave.getByText("Leaving this page will delete all unsaved changes.")).toBeVisible();
    await leave.getByRole("button", { name: "Leave page" }).click();

    // 10. Another app's export (Recharge's columns) mapped by its preset and imported.
    await expect(app.locator("h1")).toHaveText("Import");
    const product = await simCall(request, "POST", `/shops/${shop}/products`, { title: "House Blend", variants: [{ title: "1 kg", price: "30.00" }] });
    const variant = numberOf(String(product.variantIds[0]));
    const id = width; // one pair of subscriptions per walk
    const file = [
      "subscription_id,customer_email,customer_first_name,customer_last_name,address_1,city,state,zip,country,next_charge_scheduled_at,order_interval_unit,charge_interval_frequency,shopify_variant_id,product_title,quantity,price,status",
      `${id}1,mary.${id}@example.com,Mary,Somerville,12 Harbour St,Portland,OR,97201,United States,2030-02-01T00:00:00,month,1,${variant},House Blend,2,$30.00,active`,
      `${id}2,carl.${id}@example.com,Carl,Gauss,3 Mill Lane,Leeds,,LS1 1AA,United Kingdom,2030-02-15,week,2,${variant},House Blend,1,$30.00,ACTIVE`,
    ].join("\n");
    await expect(app.getByRole("button", { name: "Import subscriptions" })).toBeDisabled();
    await app.locator('input[type="file"]').setInputFiles({ name: "recharge-subscriptions.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    await expect(app.getByLabel("Exported from")).toHaveValue("recharge");
    await expect(app.getByLabel("Email", { exact: true })).toHaveValue("customer_email");
    await expect(app.getByLabel("Variant ID", { exact: true })).toHaveValue("shopify_variant_id");
    await expect(app.getByText("Still to choose: Currency.")).toBeVisible();
    await app.getByLabel("Currency of every subscription").fill("USD");
    await expect(app.getByText(/Still to choose/)).toHaveCount(0);
    await app.getByRole("button", { name: "Check file" }).click();
    await expect(app.getByText("2 rows, 2 subscriptions: 2 to create, 0 already imported, 0 with errors.", { exact: false })).toBeVisible();
    await app.getByRole("button", { name: "Import 2 subscriptions" }).click();
    await expect(app.getByText("2 of 2 subscriptions done: 2 created, 0 skipped as already imported, 0 failed")).toBeVisible({ timeout: 60_000 });
    // Recharge's "week" every 2 became Shopify's billing policy (the journey's own contracts are monthly).
    const contracts = await simCall<{ billingPolicy: { interval: string; intervalCount: number } }[]>(request, "GET", `/shops/${shop}/contracts`);
    expect(contracts.filter((c) => c.billingPolicy.interval === "WEEK" && c.billingPolicy.intervalCount === 2).length).toBeGreaterThanOrEqual(1);
    // The template downloads (at phone width Polaris folds the page's secondary actions into "Actions").
    const downloading = page.waitForEvent("download");
    const more = app.getByRole("button", { name: "Actions" });
    if (await more.isVisible()) await more.click();
    await app.getByRole("button", { name: "Download template" }).click();
    expect((await downloading).suggestedFilename()).toBe("subscriptions-import-template.csv");
    await expectAccessible(page);
    await fits(page, width);
    console.expectNone();

    // 11. The example portal on the seeded demo, from the app's own address (allowed by the seed:
    //     docs/decisions/132-allowed-origins.md): a subscriber signs in and sees their subscriptions.
    const portal = await page.context().newPage();
    const portalConsole = watchConsole(portal);
    await portal.setViewportSize({ width, height: 812 });
    const mint = (...extra: string[]) => JSON.parse(cli("keys", "mint", "--shop", DEMO_SHOP, "--name", "demo portal", ...extra)).key as string;
    const publishable = mint("--scopes", "read:plans", "--publishable");
    const secret = mint("--scopes", "read:subscriptions");
    const list = await (
      await request.get(`${APP}/api/admin/v1/subscriptions?status=ACTIVE&limit=1`, { headers: { Authorization: `Bearer ${secret}` } })
    ).json();
    const token = await (
      await request.post(`${SIM}/_sim/shops/${DEMO_SHOP}/customer-access-tokens`, { data: { customerId: list.data[0].customer_id } })
    ).json();
    await portal.goto(`${APP}/examples/portal/?api=${encodeURIComponent(APP)}&key=${encodeURIComponent(publishable)}`);
    await portal.getByLabel("Customer access token").fill(token.accessToken);
    await portal.getByRole("button", { name: "Sign in" }).click();
    await expect(portal.getByRole("status")).toHaveText("Signed in.");
    await expect(portal.locator("li.card").first()).toBeVisible();
    portalConsole.expectNone();
  });
}
