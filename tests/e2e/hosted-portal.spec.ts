// The hosted customer portal on the simulated storefront (docs/decisions/140-hosted-portal-app-proxy.md):
// the shop's own host (<shop>.localhost), a demo customer logs in, opens the portal from the
// account page and does every action the portal offers through plain forms (the delivery address
// too, with a field's message after bad input). Each change is read back from the simulator (the
// platform) and from the portal's own page, which renders the app's mirror. The box pick is saved on the contract. The cancel flow's pause offer pauses instead and shows on the Cancellation insights
// page; a hidden action is absent; another customer's contract and forged or stale signatures
// are refused. At 1280 and 375 px with JavaScript, and once with JavaScript disabled; no console
// errors, no serious axe violations, no sideways scrolling at 375 px.
import { createHmac } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { APP, SIM, expectAccessible, openApp, seed, simCall, watchConsole } from "./admin-support";

type Seeded = {
  domain: string;
  customers: { a: string; b: string };
  contracts: Record<"a" | "aBox" | "b", { id: string; lines: { id: string }[] }>;
  variants: { dark: string };
};

function seedShop(): Seeded {
  const out = seed("customer-portal", APP);
  const line = out.split("\n").find((l) => l.startsWith('{"domain"'));
  if (!line) throw new Error(`the fixture printed no shop: ${out}`);
  return JSON.parse(line) as Seeded;
}

const num = (gid: string) => gid.split("/").pop()!;
const DEV_SECRET = "dev-api-secret-not-for-production"; // app/infra/local-env.ts, the e2e run's secret

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const contract = (request: APIRequestContext, s: Seeded, id = s.contracts.a.id): Promise<any> =>
  simCall(request, "GET", `/shops/${encodeURIComponent(s.domain)}/contracts/${encodeURIComponent(id)}`);
const emails = (request: APIRequestContext, s: Seeded) => simCall<unknown[]>(request, "GET", `/shops/${encodeURIComponent(s.domain)}/emails`);

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** axe-core and the width check run as scripts in the page: the JavaScript-disabled run does the same steps without them. */
async function checkPage(page: Page, width: number, js: boolean) {
  if (!js) return;
  await expectAccessible(page);
  if (width === 375) await noSidewaysScroll(page);
}

const notice = (page: Page) => page.getByRole("status");

/**
 * The journey on the storefront. `admin` (the runs with JavaScript) also hides an action and
 * reads the insights in the simulated admin, and checks each page with axe-core.
 */
async function journey(page: Page, request: APIRequestContext, s: Seeded, width: number, admin: boolean, consoleErrors: ReturnType<typeof watchConsole>) {
  const store = SIM.replace("127.0.0.1", `${s.domain}.localhost`);
  const a = num(s.contracts.a.id);

  // Not logged in: the portal answers the store's login link.
  await page.goto(`${store}/apps/subscriptions`);
  await expect(page.getByRole("heading", { name: "My subscriptions" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await checkPage(page, width, admin);
  const ada = await page.getByLabel("Customer").locator("option", { hasText: /^Ada / }).getAttribute("value");
  await page.getByLabel("Customer").selectOption(ada!);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The login came back to the portal (return_url); the account page links to it too.
  await expect(page.getByRole("heading", { name: "My subscriptions" })).toBeVisible();
  await page.goto(`${store}/account`);
  await page.getByRole("link", { name: "Manage subscriptions" }).click();
  await expect(page.getByRole("heading", { name: "My subscriptions" })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("Ada's account"); // inside the theme layout
  await checkPage(page, width, admin);

  await page.getByRole("link", { name: "Coffee" }).click();
  await expect(page.getByRole("heading", { name: "Coffee" })).toBeVisible();
  await checkPage(page, width, admin);
  const status = page.locator('[data-field="status"]');
  const nextCharge = page.locator('[data-field="next-charge"]');

  // Skip: the next charge moves one month on the platform, and the page (the mirror) shows it.
  const before = await contract(request, s);
  await page.getByRole("button", { name: "Skip next delivery" }).click();
  await expect(notice(page)).toHaveText("Your next delivery is skipped.");
  const skipped = await contract(request, s);
  expect(new Date(skipped.nextBillingDate).getUTCMonth()).toBe((new Date(before.nextBillingDate).getUTCMonth() + 1) % 12);
  const longDay = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  await expect(nextCharge).toHaveText(longDay(skipped.nextBillingDate));

  // Reschedule within the window.
  const date = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel(/New date of the next charge/).fill(date);
  await page.getByRole("button", { name: "Change date" }).click();
  await expect(notice(page)).toHaveText("Your next charge date has changed.");
  expect((await contract(request, s)).nextBillingDate.slice(0, 10)).toBe(date);
  await expect(nextCharge).toHaveText(longDay(`${date}T12:00:00Z`));

  // Quantity.
  await page.getByLabel("Quantity of Coffee").fill("2");
  await page.getByRole("button", { name: "Update quantity" }).click();
  await expect(notice(page)).toHaveText("The quantity has changed.");
  expect((await contract(request, s)).lines[0].quantity).toBe(2);
  await expect(page.getByRole("region", { name: "Products" })).toContainText("× 2");

  // Swap within the plan group.
  await page.getByRole("link", { name: "Swap Coffee" }).click();
  await expect(page.getByRole("heading", { name: "Swap Coffee" })).toBeVisible();
  await checkPage(page, width, admin);
  await page.getByLabel(/Coffee · Dark/).check();
  await page.getByRole("button", { name: "Swap product" }).click();
  await expect(notice(page)).toHaveText("The product has changed.");
  expect((await contract(request, s)).lines[0].variantId).toBe(s.variants.dark);
  await expect(page.getByRole("region", { name: "Products" })).toContainText("(Dark)");

  // Pause and resume.
  await page.getByRole("button", { name: "Pause subscription" }).click();
  await expect(notice(page)).toHaveText("Your subscription is paused.");
  await expect(status).toHaveText("Paused");
  expect((await contract(request, s)).status).toBe("PAUSED");
  await page.getByRole("button", { name: "Resume subscription" }).click();
  await expect(notice(page)).toHaveText("Your subscription is active again.");
  await expect(status).toHaveText("Active");
  expect((await contract(request, s)).status).toBe("ACTIVE");

  // The payment-method update e-mail, sent by the platform.
  const sent = (await emails(request, s)).length;
  await page.getByRole("button", { name: "E-mail me a payment update link" }).click();
  await expect(notice(page)).toHaveText("We sent you an e-mail with a link to update your payment method.");
  expect((await emails(request, s)).length).toBe(sent + 1);

  // The delivery address: a ZIP left out for a country that has them is told on its field, and
  // nothing is written; then the address lands on the platform's contract.
  await page.getByRole("link", { name: "Change delivery address" }).click();
  await expect(page.getByRole("heading", { name: "Delivery address" })).toBeVisible();
  await checkPage(page, width, admin);
  await page.getByLabel("Street address").fill("12 Analytical Row");
  await page.getByLabel("City").fill("Portland");
  await page.getByLabel(/^State or province code/).fill("OR");
  await page.getByLabel(/^Country code/).fill("US");
  await page.getByLabel("ZIP or postal code").fill("");
  const addressUrl = page.url().split("?")[0];
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByText("Enter the ZIP or postal code.")).toBeVisible();
  await expect(page.getByLabel("ZIP or postal code")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, width, admin);
  expect((await contract(request, s)).deliveryAddress?.address1 ?? null).not.toBe("12 Analytical Row");
  // Chromium logs the 400 answer to the post as a console error: it is the refusal under test.
  const badInput = `${addressUrl}: Failed to load resource: the server responded with a status of 400 (Bad Request)`;
  expect(consoleErrors.errors.filter((e) => e === badInput)).toHaveLength(1);
  consoleErrors.errors.splice(consoleErrors.errors.indexOf(badInput), 1);
  await page.getByLabel("ZIP or postal code").fill("97201");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(notice(page)).toHaveText("Your delivery address has changed.");
  expect((await contract(request, s)).deliveryAddress).toMatchObject({ address1: "12 Analytical Row", city: "Portland", zip: "97201" });
  await expect(page.getByRole("region", { name: "History" })).toContainText("Delivery address changed");

  // E-mail preferences.
  await page.getByRole("link", { name: "← My subscriptions" }).click();
  await page.getByLabel("Box menu").uncheck();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(notice(page)).toHaveText("Your e-mail preferences are saved.");
  await expect(page.getByLabel("Box menu")).not.toBeChecked();
  await expect(page.getByLabel("Order updates")).toBeChecked();

  // The box pick on the build-a-box subscription: two of the menu's first item, one of the second.
  await page.getByRole("link", { name: "Treats" }).click();
  await page.getByRole("link", { name: "Pick this period's box" }).click();
  await expect(page.getByRole("heading", { name: /^Your box for / })).toBeVisible();
  await checkPage(page, width, admin);
  const quantities = page.getByRole("group", { name: "Quantities" }).getByRole("spinbutton");
  await quantities.nth(0).fill("2");
  await quantities.nth(1).fill("1");
  await page.getByRole("button", { name: "Save my box" }).click();
  await expect(notice(page)).toHaveText("Your box for this period is saved.");
  const boxAttrs = (await contract(request, s, s.contracts.aBox.id)).lines[0].customAttributes as { key: string; value: string }[];
  expect(boxAttrs.find((x) => x.key === "_box_items")?.value).toMatch(/^gid:\/\/shopify\/ProductVariant\/\d+:2,gid:\/\/shopify\/ProductVariant\/\d+:1$/);
  await expect(page.getByRole("region", { name: /Your pick for/ })).toContainText("× 2");
  await page.getByRole("link", { name: "← Back" }).click();
  await page.getByRole("link", { name: "← My subscriptions" }).click();

  // The cancel flow: the pause offer, accepted, pauses instead of cancelling.
  await page.getByRole("link", { name: "Coffee" }).click();
  await page.getByRole("link", { name: "Cancel subscription" }).click();
  await expect(page.getByRole("heading", { name: "Cancel Coffee" })).toBeVisible();
  await checkPage(page, width, admin);
  await page.getByRole("button", { name: "Pause instead" }).click();
  await expect(notice(page)).toHaveText("Your subscription is paused instead of cancelled.");
  await expect(status).toHaveText("Paused");
  expect((await contract(request, s)).status).toBe("PAUSED");

  // Another customer's contract id in the address is refused, and nothing of it is shown.
  const otherUrl = `${store}/apps/subscriptions/s/${num(s.contracts.b.id)}`;
  const other = await page.goto(otherUrl);
  expect(other?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not your subscription" })).toBeVisible();
  // Chromium logs every 4xx document as a console error: this one is the refusal under test.
  const refusal = `${otherUrl}: Failed to load resource: the server responded with a status of 403 (Forbidden)`;
  expect(consoleErrors.errors.filter((e) => e === refusal)).toHaveLength(1);
  consoleErrors.errors.splice(consoleErrors.errors.indexOf(refusal), 1);

  // Forged and stale signatures at the app's proxy URL: refused.
  const params = { shop: s.domain, path_prefix: "/apps/subscriptions", logged_in_customer_id: num(s.customers.a) };
  const sign = (timestamp: number) => {
    const q: Record<string, string> = { ...params, timestamp: String(timestamp) };
    const msg = Object.keys(q)
      .sort()
      .map((k) => `${k}=${q[k]}`)
      .join("");
    return new URLSearchParams({ ...q, signature: createHmac("sha256", DEV_SECRET).update(msg).digest("hex") }).toString();
  };
  const fresh = sign(Math.floor(Date.now() / 1000));
  expect((await request.get(`${APP}/portal/s/${a}?${fresh}`)).status()).toBe(200); // the same query, signed now, is accepted
  expect((await request.get(`${APP}/portal/s/${a}?${sign(Math.floor(Date.now() / 1000) - 600)}`)).status()).toBe(400);
  expect((await request.get(`${APP}/portal/s/${a}?${fresh.replace(/signature=[0-9a-f]{8}/, "signature=00000000")}`)).status()).toBe(400);

  if (admin) {
    // The merchant hides "Skip a delivery": the portal's next page has no skip, in the cancel flow neither.
    const adminPage = await page.context().newPage();
    await adminPage.setViewportSize({ width, height: 900 });
    const adminConsole = watchConsole(adminPage);
    const app = await openApp(adminPage, s.domain, "/app/portal");
    await app.getByLabel("Skip a delivery").check();
    await app.getByRole("button", { name: "Save" }).click();
    await expect(adminPage.getByText("Portal settings saved")).toBeVisible();
    // The pause offer accepted above is in the Cancellation insights.
    await expect(async () => {
      const insights = await openApp(adminPage, s.domain, "/app/cancellations");
      await expect(insights.locator("h1")).toHaveText("Cancellation insights");
      await expect(insights.getByText("Pause: 1 shown, 1 accepted (100.0% of shown)")).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await expectAccessible(adminPage);
    adminConsole.expectNone();
    await adminPage.close();
    await page.goto(`${store}/apps/subscriptions/s/${a}`);
    await page.getByRole("button", { name: "Resume subscription" }).click();
    await expect(status).toHaveText("Active");
    await expect(page.getByRole("button", { name: "Skip next delivery" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Pause subscription" })).toBeVisible();
    await page.getByRole("link", { name: "Cancel subscription" }).click();
    await expect(page.getByRole("button", { name: "Skip next delivery instead" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Pause instead" })).toBeVisible();
  } else {
    await page.goto(`${store}/apps/subscriptions/s/${a}`);
    await page.getByRole("button", { name: "Resume subscription" }).click();
    await expect(status).toHaveText("Active");
    await page.getByRole("link", { name: "Cancel subscription" }).click();
  }

  // Cancel for good.
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(notice(page)).toHaveText("Your subscription is cancelled.");
  await expect(status).toHaveText("Cancelled");
  expect((await contract(request, s)).status).toBe("CANCELLED");
  await expect(page.getByRole("button", { name: "Pause subscription" })).toHaveCount(0);
  await checkPage(page, width, admin);
}

for (const width of [1280, 375]) {
  test(`a subscriber manages a subscription in the hosted portal on the storefront (${width} px)`, async ({ page, request }) => {
    test.setTimeout(360_000);
    await page.setViewportSize({ width, height: 900 });
    const consoleErrors = watchConsole(page);
    await journey(page, request, seedShop(), width, true, consoleErrors);
    consoleErrors.expectNone();
  });
}

test("every portal action works with JavaScript disabled (375 px)", async ({ browser, request }) => {
  test.setTimeout(360_000);
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await journey(page, request, seedShop(), 375, false, consoleErrors);
  consoleErrors.expectNone();
  await context.close();
});
