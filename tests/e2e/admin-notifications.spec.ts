// The Notifications page (docs/decisions/101-104): the merchant edits the reminder template,
// previews it, sends a test and finds it on the local mailbox's page; a customer's address the
// mailbox refuses with 550 makes a real pause confirmation bounce, and the log shows it with its
// reason; a message held after its sender stopped mid-send is resent by the merchant and arrives
// (docs/decisions/133). At 375 px, with no console errors and no serious axe violations.
import { expect, test } from "@playwright/test";
import { E2E_MAILBOX_URL as MAILBOX } from "../../playwright.config";
import { expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, seed, simCall, watchConsole } from "./admin-support";

test("edit, preview and send a test of the reminder template; the test arrives in the mailbox", async ({ page, request, context }) => {
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-mail");
  const app = await openApp(page, shop);
  await navigate(page, "Notifications");
  await expect(app.locator("h1")).toHaveText("Notifications");
  await expect(app.getByLabel("Message", { exact: true })).toHaveValue("renewal_reminder");
  await expect(app.getByText("{{ next_billing_date }}", { exact: true })).toBeVisible();

  const tag = Date.now().toString(36);
  await app.getByLabel("Subject").fill(`Heads up ${tag}: {{ product_title }} renews {{ next_billing_date }}`);
  await app.getByRole("button", { name: "Preview" }).click();
  await expect(app.getByText(`Preview: Heads up ${tag}: Coffee beans, 1 kg renews March 14, 2031`)).toBeVisible();
  await expect(app.frameLocator('iframe[title="Message preview"]').getByText("Your subscription to Coffee beans, 1 kg")).toBeVisible();

  // A typo is refused by strict mode at the editor, not at send time.
  await app.getByLabel("Subject").fill("Heads up {{ product_tilte }}");
  await app.getByRole("button", { name: "Save template" }).click();
  await expect(app.getByText(/does not render.*product_tilte/)).toBeVisible();

  await app.getByLabel("Subject").fill(`Heads up ${tag}: {{ product_title }} renews {{ next_billing_date }}`);
  await app.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByText("Template saved")).toBeVisible();
  await expect(app.getByLabel("Message", { exact: true }).locator("option:checked")).toHaveText("Renewal reminder (edited)");

  const to = `merchant-${tag}@e2e.test`;
  await app.getByLabel("Send a test to").fill(to);
  await app.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText(`Test sent to ${to}`)).toBeVisible();
  await expectAccessible(page);
  console.expectNone();

  const box = await context.newPage();
  await box.goto(MAILBOX);
  await expect(box.locator("h1")).toHaveText("Mailbox");
  await box
    .getByRole("row", { name: new RegExp(to) })
    .getByRole("link")
    .click();
  await expect(box.locator("h1")).toHaveText(`[Test] Heads up ${tag}: Coffee beans, 1 kg renews March 14, 2031`);
  await expect(box.frameLocator('iframe[title="Message body"]').getByText("Your subscription to Coffee beans, 1 kg")).toBeVisible();
});

test("at 375 px the log shows a pause confirmation the customer's server refused with 550, with its reason", async ({ page, request }) => {
  test.setTimeout(60_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-bounce");
  const app = await openApp(page, shop);
  const email = `gone-${Date.now().toString(36)}@e2e.test`;
  const refused = await request.post(`${MAILBOX}/api/refuse`, { data: { address: email, code: 550 } });
  expect(refused.ok()).toBe(true);

  const customer = await simCall(request, "POST", `/shops/${shop}/customers`, { email, paymentMethod: { kind: "credit_card" } });
  const contract = await simCall(request, "POST", `/shops/${shop}/contracts`, {
    customerId: customer.id,
    nextBillingDate: new Date(Date.now() + 20 * 86_400_000).toISOString(),
  });
  // Mirrored from the create webhook, then paused "in Shopify": the update webhook queues the confirmation.
  await expect(async () => {
    await simCall(request, "PATCH", `/shops/${shop}/contracts/${encodeURIComponent(contract.id)}`, { status: "PAUSED" });
    await openApp(page, shop, "/app/notifications?status=bounced");
    await expect(app.locator("h1")).toHaveText("Notifications");
    await expect(app.getByRole("row", { name: /Pause confirmation/ })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 45_000 });
  const row = app.getByRole("row", { name: /Pause confirmation/ });
  await expect(row).toContainText("Bounced");
  await expect(row).toContainText("550");
  await expect(row).toContainText("Mailbox unavailable");
  await expect(app.getByText(`${email}: hard bounce`)).toBeVisible();
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);
  console.expectNone();
});

test("at 375 px a held message (its sender stopped mid-send, no ledger) is resent by the merchant and arrives once", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-held");
  const to = `held-${Date.now().toString(36)}@e2e.test`;
  await openApp(page, shop); // installs the app
  seed("held-mail", shop, to);
  const app = await openApp(page, shop, "/app/notifications?status=held");
  const row = app.getByRole("row", { name: /Renewal reminder/ });
  await expect(row).toContainText("Held");
  await expect(row).toContainText("may have been sent");
  await expectAccessible(page);
  await row.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText("Message queued to send again")).toBeVisible();
  await expect(async () => {
    const mail = (await (await request.get(`${MAILBOX}/api/messages`)).json()) as { envelopeTo: string[] }[];
    expect(mail.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
  }).toPass({ timeout: 20_000 });
  await openApp(page, shop, "/app/notifications?status=sent");
  await expect(app.getByRole("row", { name: /Renewal reminder/ })).toContainText("Sent");
  await expectNoHorizontalOverflow(page);
  console.expectNone();
});
