// Webhooks page: a merchant adds an endpoint pointing at a real HTTPS receiver on loopback (its
// certificate trusted by the e2e stack's workers through NODE_EXTRA_CA_CERTS), pauses a contract
// on the Subscriptions page and sees the signed delivery in the log; the receiver then fails
// until the endpoint is disabled (the delayed retries of the ladder are promoted instead of
// waited for, as tests/integration/webhooks/delivery.test.ts does), the merchant sees the banner
// saying why, re-enables it, sends a test event, resends a delivery and deletes the endpoint.
// URL-rule refusals appear on the URL field. Below Pro the page shows the upgrade path.
import { expect, test, type Page } from "@playwright/test";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createHmac } from "node:crypto";
import { E2E_RECEIVER_CERT_DIR } from "../setup/e2e-env";
import { REDIS_URL, redisPrefix } from "../setup/workers";
import { readCert, startReceiver, type Receiver } from "../support/https-receiver";
import { cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

let receiver: Receiver | undefined;
test.afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** The e2e stack's `webhooks` queue (same Redis prefix as its workers), to run waiting retries now. */
async function promoteDelayedRetries(): Promise<number> {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const q = new Queue("webhooks", { connection, prefix: redisPrefix("e2e") });
  try {
    const delayed = await q.getDelayed();
    for (const job of delayed) await job.promote().catch(() => undefined); // already promoted or run: fine
    return delayed.length;
  } finally {
    await q.close();
    connection.disconnect();
  }
}

const frame = (page: Page) => page.frameLocator("iframe#app-iframe");

async function refreshLog(page: Page) {
  await frame(page).getByRole("button", { name: "Refresh" }).click();
}

test("a merchant adds an endpoint, sees a pause delivered, sees it disabled after failures with the reason, and re-enables it", async ({ page, request }) => {
  test.setTimeout(180_000);
  const console = watchConsole(page);
  receiver = await startReceiver(readCert(E2E_RECEIVER_CERT_DIR), () => ({ status: 200 }));
  const shop = await newShop(request, "e2e-hooks");
  const app = await openApp(page, shop); // installs the app
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  const product = await simCall(request, "POST", `/shops/${shop}/products`, { title: "Green tea", variants: [{ title: "100 g", price: "12.00" }] });
  const contract = await simCall(request, "POST", `/shops/${shop}/contracts`, { lines: [{ variantId: product.variantIds[0], quantity: 1 }], webhooks: false });
  cli("mirror", "reconcile", "--shop", shop);
  const number = String(contract.id).split("/").pop()!;

  await navigate(page, "Webhooks");
  await expect(app.locator("h1")).toHaveText("Webhooks");
  await expect(app.getByText("No endpoints yet.")).toBeVisible();
  await expectAccessible(page);

  // URL rules, shown on the field itself
  const urlField = app.getByLabel("Endpoint URL");
  await app.getByRole("checkbox", { name: "subscription.paused", exact: true }).check();
  await urlField.fill(receiver.url.replace("https:", "http:"));
  await app.getByRole("button", { name: "Add endpoint" }).click();
  await expect(urlField).toHaveAccessibleDescription(/url must use https \(got http\)/);
  await urlField.fill("https://10.0.0.1/hooks");
  await app.getByRole("button", { name: "Add endpoint" }).click();
  await expect(urlField).toHaveAccessibleDescription(/disallowed address/);
  await expect(urlField).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  // add it: the secret is shown once, with a copy button
  await urlField.fill(receiver.url);
  await app.getByRole("checkbox", { name: "subscription.reactivated", exact: true }).check();
  await app.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = app.getByRole("dialog");
  await expect(dialog.getByText("You will not see this secret again")).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Copy secret" }).click();
  await expect(dialog.getByText("Copied to the clipboard")).toBeVisible();
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByLabel("Signing secret")).toHaveValue(secret);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(app.getByRole("dialog")).toHaveCount(0);
  const card = app.getByRole("list", { name: "Endpoints" }).getByRole("listitem").filter({ hasText: receiver.url });
  await expect(card.getByText("Enabled", { exact: true })).toBeVisible();
  await expect(card.getByText("Events: subscription.paused, subscription.reactivated")).toBeVisible();
  await expect(app.locator("body")).not.toContainText(secret); // never shown again

  // pause the contract on the Subscriptions page: the platform's webhook becomes an event and a signed delivery
  await openApp(page, shop, `/app/subscriptions/${number}`);
  await app.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status").getByText("Subscription paused")).toBeVisible();
  await expect.poll(() => receiver!.count(), { timeout: 30_000 }).toBe(1);
  const first = receiver.received[0];
  expect(first.json).toMatchObject({ type: "subscription.paused", shop_domain: shop, data: { contract_id: contract.id, new_status: "PAUSED" } });
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(first.headers["x-service-signature"]))!;
  expect(v1).toBe(
    createHmac("sha256", secret)
      .update(`${t}.${first.raw.toString("utf8")}`)
      .digest("hex"),
  );

  await navigate(page, "Webhooks");
  await expect(app.locator("h1")).toHaveText("Webhooks");
  const deliveries = app.getByRole("list", { name: "Deliveries" }).locator(":scope > li"); // (each holds its list of attempts)
  await expect(async () => {
    await refreshLog(page); // the receiver has the request a moment before the worker records the answer
    await expect(deliveries.first()).toContainText("Delivered", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(deliveries).toHaveCount(1);
  await expect(deliveries.first()).toContainText("subscription.paused");
  await expect(deliveries.first()).toContainText(first.json.id);
  await expect(
    deliveries
      .first()
      .getByRole("list", { name: /^Attempts of/ })
      .getByRole("listitem"),
  ).toHaveText([/HTTP 200 · Delivered$/]);

  // the receiver fails: ten contract changes, each delivery retried on the ladder until exhausted
  receiver.respond(() => ({ status: 503 }));
  for (let i = 0; i < 10; i++) {
    await simCall(request, "PATCH", `/shops/${shop}/contracts/${number}`, { status: i % 2 === 0 ? "ACTIVE" : "PAUSED" });
    await expect.poll(() => receiver!.count(), { timeout: 30_000 }).toBe(2 + i); // one at a time: each event follows the last announced status
  }
  await expect(async () => {
    await refreshLog(page);
    await expect(deliveries.filter({ hasText: "Failed" })).toHaveCount(10, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(deliveries.filter({ hasText: "Failed" }).first()).toContainText("last error: HTTP 503 from the endpoint");

  // Five more attempts each (30 s, 2 m, 10 m, 1 h, 6 h): promoted instead of waited for.
  await expect(async () => {
    await promoteDelayedRetries();
    expect(receiver!.count()).toBe(1 + 10 * 6);
  }).toPass({ timeout: 90_000, intervals: [200, 500] });
  expect(new Set(receiver.received.slice(1).map((r) => r.json.id)).size).toBe(10); // the same event id on every retry

  // disabled, with the reason and the way back
  await expect(async () => {
    await refreshLog(page);
    await expect(card.getByText("Disabled", { exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const banner = card.getByText("Disabled after 10 deliveries in a row failed");
  await expect(banner).toBeVisible();
  await expect(card).toContainText("Fix the receiver so it answers 2xx within 10 seconds, check it with Send test event, then choose Re-enable.");
  await expect(card).toContainText("Events raised while it was disabled are not delivered to it");
  await expect(deliveries.filter({ hasText: "Exhausted" })).toHaveCount(10);
  const exhausted = deliveries.filter({ hasText: "Exhausted" }).first();
  const attempts = exhausted.getByRole("list", { name: /^Attempts of/ }).getByRole("listitem");
  await expect(attempts).toHaveCount(6);
  await expect(attempts.first()).toContainText("HTTP 503 · Failed · HTTP 503 from the endpoint");
  await expect(attempts.last()).toContainText("HTTP 503 · Exhausted");
  await expectAccessible(page);

  // the Risk Center says so too, and leads back here
  await navigate(page, "Risk Center");
  const risk = app
    .getByRole("list", { name: "Open risks" })
    .getByRole("listitem")
    .filter({ hasText: `Webhook endpoint ${receiver.url} was disabled after repeated failed deliveries` });
  await expect(risk).toBeVisible();
  await risk.getByRole("link", { name: "Open webhooks" }).click();
  await expect(app.locator("h1")).toHaveText("Webhooks");
  await expect(banner).toBeVisible();

  // filters: exhausted reactivations only
  await app.getByLabel("Delivery status", { exact: true }).selectOption("exhausted");
  await app.getByLabel("Event", { exact: true }).selectOption("subscription.reactivated");
  await app.getByRole("button", { name: "Apply filters" }).click();
  await expect(deliveries).toHaveCount(5);
  for (const text of await deliveries.allTextContents()) expect(text).toContain("subscription.reactivated");
  await app.getByRole("button", { name: "Clear" }).click();
  await expect(deliveries).toHaveCount(11);

  // re-enable once the receiver is fixed; nothing raised before is replayed
  receiver.respond(() => ({ status: 200 }));
  await card.getByRole("button", { name: `Re-enable ${receiver.url}` }).click();
  await expect(page.getByRole("status").getByText("Endpoint re-enabled")).toBeVisible();
  await expect(card.getByText("Enabled", { exact: true })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await page.waitForTimeout(1_000);
  expect(receiver.count()).toBe(61);

  // a test event, marked as such
  await card.getByRole("button", { name: `Send a test event to ${receiver.url}` }).click();
  await expect(page.getByRole("status").getByText("Test event sent")).toBeVisible();
  await expect.poll(() => receiver!.count(), { timeout: 30_000 }).toBe(62);
  expect(receiver.received[61].json.test).toBe(true);
  await expect(async () => {
    await refreshLog(page);
    await expect(deliveries.first()).toContainText("Test event", { timeout: 2_000 });
    await expect(deliveries.first()).toContainText("Delivered", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // resend one exhausted delivery: one manual attempt, marked in the log
  const resent = deliveries.filter({ hasText: "Exhausted" }).first();
  const resentEvent = (await resent.textContent())!.match(/evt_[A-Za-z0-9_-]{24}/)![0];
  await resent.getByRole("button", { name: /^Resend / }).click();
  await expect(page.getByRole("status").getByText("Delivery resent")).toBeVisible();
  await expect.poll(() => receiver!.count(), { timeout: 30_000 }).toBe(63);
  expect(receiver.received[62].json.id).toBe(resentEvent);
  const again = deliveries.filter({ hasText: resentEvent });
  await expect(async () => {
    await refreshLog(page);
    await expect(again).toContainText("Delivered", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(again.getByText("Manual", { exact: true })).toBeVisible();
  await expect(
    again
      .getByRole("list", { name: /^Attempts of/ })
      .getByRole("listitem")
      .last(),
  ).toContainText("HTTP 200 · Delivered (manual)");

  // usable at phone width
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);

  // delete, with confirmation
  await card.getByRole("button", { name: `Delete ${receiver.url}` }).click();
  const confirm = app.getByRole("dialog");
  await expect(confirm.getByText("its delivery log is deleted with it")).toBeVisible();
  await confirm.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page.getByRole("status").getByText("Endpoint deleted")).toBeVisible();
  await expect(app.getByText("No endpoints yet.")).toBeVisible();
  await expect(app.getByText("No deliveries match.")).toBeVisible();
  console.expectNone();
});

test("a shop below Pro sees the upgrade path, at 375 px", async ({ page, request }) => {
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-hooks-free");
  const app = await openApp(page, shop);
  await navigate(page, "Webhooks");
  await expect(app.locator("h1")).toHaveText("Webhooks");
  await expect(app.getByText("Webhooks are part of the Pro plan")).toBeVisible();
  await expect(app.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);
  await app.getByRole("link", { name: "Upgrade to Pro" }).click();
  await expect(app.locator("h1")).toHaveText("Plan");
  console.expectNone();
});
