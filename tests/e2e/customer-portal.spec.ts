// The example headless portal (public/examples/portal) in Chromium, from another origin than
// the API: the page is loaded from http://localhost:<port>, the Customer API answers on
// http://127.0.0.1:<port> and the Customer Account API on the simulator, so every call is a
// CORS request. It signs a customer in with a customer access token, lists their
// subscriptions, edits a box, reschedules, changes a quantity, asks for the payment-update
// e-mail and cancels with a reason after the cancel flow's offers; each outcome is checked on the platform (simulator).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { APP, SIM, seed, simCall, watchConsole } from "./admin-support";

const PORTAL_ORIGIN = APP.replace("127.0.0.1", "localhost");
type Seeded = {
  domain: string;
  publishableKey: string;
  numericId: number;
  customers: { a: string; b: string };
  contracts: Record<"a" | "aBox" | "b" | "bBox", { id: string; lines: { id: string }[] }>;
  variants: { menu: string[] };
};

function seedShop(): Seeded {
  const out = seed("customer-portal", PORTAL_ORIGIN);
  const line = out.split("\n").find((l) => l.startsWith('{"domain"'));
  if (!line) throw new Error(`the fixture printed no shop: ${out}`);
  return JSON.parse(line) as Seeded;
}

let requestContext: Parameters<typeof simCall>[0] | undefined;
const contract = (s: Seeded, id: string) => simCall(requestContext!, "GET", `/shops/${encodeURIComponent(s.domain)}/contracts/${encodeURIComponent(id)}`);

async function openPortal(page: Page, s: Seeded) {
  const account = `${SIM}/shopify.com/${s.numericId}/account/customer/api/2026-10/graphql`;
  const url = `${PORTAL_ORIGIN}/examples/portal/?api=${encodeURIComponent(APP)}&key=${encodeURIComponent(s.publishableKey)}&account=${encodeURIComponent(account)}`;
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "My subscriptions" })).toBeVisible();
}

async function signIn(page: Page, s: Seeded, customerId: string) {
  const token = await simCall<{ accessToken: string }>(requestContext!, "POST", `/shops/${encodeURIComponent(s.domain)}/customer-access-tokens`, {
    customerId,
  });
  await page.getByLabel("Customer access token").fill(token.accessToken);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("status")).toHaveText("Signed in.");
}

test("the example portal drives every action through the Customer API across origins", async ({ page, request }) => {
  test.setTimeout(90_000); // ten actions, each checked at the platform
  requestContext = request;
  const s = seedShop();
  const consoleErrors = watchConsole(page);
  const apiCalls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/customer/v1/")) apiCalls.push(r.url());
  });
  await openPortal(page, s);
  await signIn(page, s, s.customers.a);

  const cards = page.locator("li.card");
  await expect(cards).toHaveCount(2);
  const coffee = page.locator(`li.card[data-contract-id="${s.contracts.a.id}"]`);
  const box = page.locator(`li.card[data-contract-id="${s.contracts.aBox.id}"]`);
  await expect(coffee.getByText("Paying with visa ending 4242.")).toBeVisible();

  // Build the box: two of the first menu item, one of the second.
  await box.getByText("Build this period's box").click();
  const inputs = box.locator(".box-form input");
  await expect(inputs).toHaveCount(3);
  await inputs.nth(0).fill("2");
  await inputs.nth(1).fill("1");
  await box.getByRole("button", { name: "Save my box" }).click();
  await expect(page.getByRole("status")).toHaveText("Box saved: 2 × Treat 1, 1 × Treat 2.");
  const boxed = await contract(s, s.contracts.aBox.id);
  expect(boxed.lines[0].customAttributes).toContainEqual({ key: "_box_items", value: `${s.variants.menu[0]}:2,${s.variants.menu[1]}:1` });

  // Reschedule the coffee to a date 20 days out.
  const date = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  await coffee.getByLabel("Next charge date").fill(date);
  await coffee.getByRole("button", { name: "Reschedule" }).click();
  await expect(page.getByRole("status")).toContainText("Next charge moved to");
  expect(new Date((await contract(s, s.contracts.a.id)).nextBillingDate).toISOString()).toBe(`${date}T12:00:00.000Z`);

  // Change the quantity of the coffee line (its id came from the Customer Account API).
  await coffee.getByLabel("Quantity").fill("3");
  await coffee.getByRole("button", { name: "Change quantity" }).click();
  await expect(page.getByRole("status")).toHaveText("Quantity changed to 3.");
  expect((await contract(s, s.contracts.a.id)).lines[0].quantity).toBe(3);

  // Ask for the payment-method update e-mail.
  const emailsBefore = (await simCall<unknown[]>(request, "GET", `/shops/${encodeURIComponent(s.domain)}/emails`)).length;
  await coffee.getByRole("button", { name: /update my payment method/ }).click();
  await expect(page.getByRole("status")).toHaveText("We e-mailed you a secure link to update your payment method.");
  expect((await simCall<unknown[]>(request, "GET", `/shops/${encodeURIComponent(s.domain)}/emails`)).length).toBe(emailsBefore + 1);

  // Cancel with a reason: the cancel flow offers a pause and a skip first (the defaults of GET
  // /config), the reason goes to the Customer API, the cancellation to the platform.
  await coffee.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(coffee.getByRole("button", { name: "Pause instead" })).toBeVisible();
  await expect(coffee.getByRole("button", { name: "Skip the next delivery instead" })).toBeVisible();
  await coffee.getByLabel(/Tell us why/).selectOption("Too much product");
  await coffee.getByRole("button", { name: "Cancel my subscription" }).click();
  await expect(page.getByRole("status")).toHaveText("Your subscription is cancelled. Thanks for telling us why.");
  expect((await contract(s, s.contracts.a.id)).status).toBe("CANCELLED");
  await expect(coffee.getByRole("button", { name: "Cancel subscription" })).toBeHidden();

  // Every Customer API call went to the API's origin, not the page's.
  expect(new URL(page.url()).origin).toBe(PORTAL_ORIGIN);
  expect(apiCalls.length).toBeGreaterThan(8);
  for (const url of apiCalls) expect(new URL(url).origin).toBe(APP);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  consoleErrors.expectNone();
});

test("the portal shows the API's refusal and works at 375 px", async ({ page, request }) => {
  requestContext = request;
  await page.setViewportSize({ width: 375, height: 800 });
  const s = seedShop();
  const consoleErrors = watchConsole(page);
  await openPortal(page, s);
  await page.getByLabel("Customer access token").fill("not-a-real-token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("The credential is not valid for this API.");
  await signIn(page, s, s.customers.b);
  await expect(page.locator("li.card")).toHaveCount(2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // A refused sign-in answers 401, which Chromium reports as a failed resource load; nothing else may.
  expect(consoleErrors.errors.filter((e) => !e.includes("401"))).toEqual([]);
});
