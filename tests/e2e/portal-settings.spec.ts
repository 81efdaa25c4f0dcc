// Portal settings (docs/decisions/113-portal-settings.md): the merchant hides "skip", turns the
// pause offer off and writes the reasons; GET /config answers exactly that and the example portal
// (public/examples/portal, another origin) stops offering skip at once, shows the new reasons, and
// offers nothing before a cancel; showing skip again brings it back on the portal's next load, and
// the skip offer the shopper then accepts is on the Cancellation insights page.
// Desktop and 375 px, no console errors, no serious axe violations, the plain warning shown.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { APP, SIM, expectAccessible, expectNoHorizontalOverflow, navigate, openApp, seed, simCall, watchConsole } from "./admin-support";

const PORTAL_ORIGIN = APP.replace("127.0.0.1", "localhost");
type Seeded = { domain: string; publishableKey: string; numericId: number; customers: { a: string }; contracts: Record<"a", { id: string }> };

function seedShop(): Seeded {
  const out = seed("customer-portal", PORTAL_ORIGIN);
  const line = out.split("\n").find((l) => l.startsWith('{"domain"'));
  if (!line) throw new Error(`the fixture printed no shop: ${out}`);
  return JSON.parse(line) as Seeded;
}

const customerToken = async (request: APIRequestContext, s: Seeded) =>
  (await simCall<{ accessToken: string }>(request, "POST", `/shops/${encodeURIComponent(s.domain)}/customer-access-tokens`, { customerId: s.customers.a }))
    .accessToken;

/** GET /config as a storefront would call it: publishable key plus a customer session. */
async function getConfig(request: APIRequestContext, s: Seeded) {
  const auth = { Authorization: `Bearer ${s.publishableKey}` };
  const session = await request.post(`${APP}/api/customer/v1/session`, { headers: auth, data: { customer_access_token: await customerToken(request, s) } });
  const { session_token } = (await session.json()) as { session_token: string };
  const res = await request.get(`${APP}/api/customer/v1/config`, { headers: { ...auth, "X-Service-Session": session_token } });
  expect(res.status()).toBe(200);
  return res.json();
}

async function openPortal(portal: Page, request: APIRequestContext, s: Seeded) {
  const account = `${SIM}/shopify.com/${s.numericId}/account/customer/api/2026-10/graphql`;
  const token = await customerToken(request, s);
  await portal.goto(
    `${PORTAL_ORIGIN}/examples/portal/?api=${encodeURIComponent(APP)}&key=${encodeURIComponent(s.publishableKey)}&account=${encodeURIComponent(account)}&token=${encodeURIComponent(token)}`,
  );
  await expect(portal.getByRole("status")).toHaveText("Signed in.");
  return portal.locator(`li.card[data-contract-id="${s.contracts.a.id}"]`);
}

for (const width of [1280, 375]) {
  test(`the merchant's portal settings reach GET /config and the example portal at once (${width} px)`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    const s = seedShop();
    const app = await openApp(page, s.domain, "/app/portal");
    await expect(app.locator("h1")).toHaveText("Portal settings");
    await expect(app.getByText("Hiding a button does not forbid the action")).toBeVisible();
    await expect(app.getByText(/can still pause, skip or cancel a subscription at Shopify/)).toBeVisible();
    await expect(app.getByText(/Some jurisdictions require that customers can cancel online/)).toBeVisible();
    await expect(app.getByLabel("Reschedule window (months)")).toHaveValue("3");
    await expectAccessible(page);
    if (width === 375) await expectNoHorizontalOverflow(page);

    // A refusal lands on its field and saves nothing.
    await app.getByLabel("Reschedule window (months)").fill("30");
    await app.getByRole("button", { name: "Save" }).click();
    await expect(app.getByText("at most 24 months")).toBeVisible();

    await app.getByLabel("Reschedule window (months)").fill("6");
    await app.getByLabel("Offer a pause instead of cancelling").uncheck();
    await app.getByLabel("Cancellation reasons").fill("Too expensive\nMoving house\nToo much coffee");
    await app.getByLabel("Skip a delivery").check();
    await app.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Portal settings saved")).toBeVisible();

    expect(await getConfig(request, s)).toEqual({
      reschedule_max_months: 6,
      cancel_flow: { offer_pause: false, offer_skip: true, show_reason_survey: true, reasons: ["Too expensive", "Moving house", "Too much coffee"] },
      portal_actions: {
        hide_skip: true,
        hide_pause: false,
        hide_cancel: false,
        hide_edit_address: false,
        hide_edit_quantity: false,
        hide_swap_product: false,
        hide_change_date: false,
      },
    });

    const portal = await page.context().newPage();
    await portal.setViewportSize({ width, height: 900 });
    const portalConsole = watchConsole(portal);
    let card = await openPortal(portal, request, s);
    await expect(card.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: "Skip the next delivery" })).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Skip the next delivery" })).toBeHidden();
    await card.getByRole("button", { name: "Cancel subscription" }).click();
    // Skip is hidden and the pause offer is off: the cancel flow offers nothing, and asks why.
    await expect(card.getByRole("button", { name: "Pause instead" })).toBeHidden();
    await expect(card.getByRole("button", { name: "Skip the next delivery instead" })).toBeHidden();
    await expect(card.getByLabel(/Tell us why/).locator("option")).toHaveText(["Too expensive", "Moving house", "Too much coffee"]);
    await card.getByRole("button", { name: "Keep my subscription" }).click();
    expect(await portal.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // Show skip again: the portal's next load offers it, in the cancel flow too.
    await app.getByLabel("Skip a delivery").uncheck();
    await app.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Portal settings saved").last()).toBeVisible();
    await expect.poll(async () => (await getConfig(request, s)).portal_actions.hide_skip).toBe(false);
    card = await openPortal(portal, request, s);
    await expect(card.getByRole("button", { name: "Skip the next delivery", exact: true })).toBeVisible();
    await card.getByRole("button", { name: "Cancel subscription" }).click();
    await card.getByRole("button", { name: "Skip the next delivery instead" }).click();
    await expect(portal.getByRole("status")).toContainText("is skipped.");

    // The save events the portal just recorded are on the cancellation insights page.
    await navigate(page, "Cancellation insights");
    await expect(app.locator("h1")).toHaveText("Cancellation insights");
    await expect(async () => {
      await page.reload();
      await expect(app.getByText("1 of 1")).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await expect(app.getByText("Skip: 1 shown, 1 accepted (100.0% of shown)")).toBeVisible();
    await expect(app.getByText("Pause: 0 shown, 0 accepted (— of shown)")).toBeVisible();
    await expectAccessible(page);
    if (width === 375) await expectNoHorizontalOverflow(page);

    await navigate(page, "Portal settings");
    await expect(app.locator("h1")).toHaveText("Portal settings");
    await expect(app.getByLabel("Reschedule window (months)")).toHaveValue("6");
    await expect(app.getByLabel("Offer a pause instead of cancelling")).not.toBeChecked();
    await expect(app.getByLabel("Skip a delivery")).not.toBeChecked();
    console.expectNone();
    portalConsole.expectNone();
  });
}
