// From plan to renewal: a merchant creates an anchored plan (15th, cutoff 3 days, NEXT, 10 % off)
// with the resource picker; the plan shows in the storefront's product form; a shopper subscribes
// through the simulated checkout; the contract appears on the Subscriptions page with the first
// charge the NEXT rule gives; subscription.created reaches a registered HTTPS endpoint; a billing
// run on that date charges it and moves it to the next 15th; a skip moves it one anchor further.
// Desktop and 375 px, no console errors, no serious axe violations.
import { expect, test } from "@playwright/test";
import { E2E_RECEIVER_CERT_DIR } from "../setup/e2e-env";
import { readCert, startReceiver, type Receiver } from "../support/https-receiver";
import { SIM, adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

let receiver: Receiver | undefined;
test.afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** The NEXT rule by hand (UTC shop): the first 15th at least 3 days after today, as YYYY-MM-DD. */
function nextRuleFirstCharge(today: Date): string {
  const at = (y: number, m: number) => new Date(Date.UTC(y, m, 15));
  let anchor = at(today.getUTCFullYear(), today.getUTCMonth());
  const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (anchor.getTime() < day) anchor = at(today.getUTCFullYear(), today.getUTCMonth() + 1);
  if ((anchor.getTime() - day) / 86_400_000 < 3) anchor = at(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1);
  return anchor.toISOString().slice(0, 10);
}
const monthAfter = (iso: string, n = 1) => {
  const d = new Date(`${iso}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 15)).toISOString().slice(0, 10);
};

for (const width of [1280, 375]) {
  test(`plan, checkout, subscription.created, renewal on the 15th and a skip (${width} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    receiver = await startReceiver(readCert(E2E_RECEIVER_CERT_DIR), () => ({ status: 200 }));
    const shop = await newShop(request, "e2e-checkout");
    const product = await simCall<{ id: string; variants: { id: string }[] }>(request, "POST", `/shops/${shop}/products`, {
      title: "House coffee",
      variants: [{ title: "250 g", price: "20.00" }],
    });
    await openApp(page, shop);
    cli("shops", "plan", "--shop", shop, "--plan", "pro");
    const key = JSON.parse(
      cli("keys", "mint", "--shop", shop, "--name", "e2e", "--scopes", "read:plans,read:subscriptions,write:subscriptions,manage:webhooks"),
    ).key as string;
    const endpoint = await adminApi(request, key, "/webhooks/endpoints", {
      method: "POST",
      data: { url: receiver.url, events: ["subscription.created"] },
      headers: { "Idempotency-Key": `e2e-${Date.now()}` },
    });
    expect(endpoint.status).toBe(201);

    // The merchant's plan, made in the Plans page.
    await navigate(page, "Plans");
    const app = page.frameLocator("iframe#app-iframe");
    await app.getByRole("link", { name: "Create plan" }).first().click();
    await app.getByLabel("Name", { exact: true }).fill("Coffee club");
    await app.getByLabel("Merchant code").fill("coffee-club");
    await app.getByRole("button", { name: "Select products" }).click();
    const picker = page.getByRole("dialog", { name: "Select products" });
    await picker.getByRole("checkbox", { name: "House coffee", exact: true }).check();
    await picker.getByRole("button", { name: "Select" }).click();
    const today = new Date();
    await app.getByRole("textbox", { name: "Sign-up date" }).fill(today.toISOString().slice(0, 10));
    const first = nextRuleFirstCharge(today);
    await expect(app.getByTestId("preview-first-charge")).toHaveText(first);
    await app.getByRole("button", { name: "Save plan" }).click();
    await expect(app.getByRole("button", { name: "Coffee club" })).toBeVisible();

    // The storefront's product form offers it; the shopper subscribes and pays.
    const store = await page.context().newPage();
    await store.setViewportSize({ width, height: 900 });
    const storeConsole = watchConsole(store);
    await store.goto(`${SIM}/storefront/${shop}/products/${product.id.split("/").pop()}`);
    await expect(store.getByRole("heading", { name: "House coffee" })).toBeVisible();
    await store.getByRole("radio", { name: /Coffee club: Charged on the 15th, every month, 10% off/ }).check();
    await store.getByLabel("Note for this line (optional)").fill("Whole beans");
    await expectAccessible(store);
    await store.getByRole("button", { name: "Add to cart" }).click();
    await expect(store.getByRole("heading", { name: "Cart" })).toBeVisible();
    await store.getByLabel("E-mail").fill("ada@example.com");
    await store.getByLabel("First name").fill("Ada");
    await store.getByLabel("Last name").fill("Lovelace");
    await expectAccessible(store);
    await store.getByRole("button", { name: "Pay now" }).click();
    await expect(store.getByRole("status")).toContainText("Thank you! Order");
    storeConsole.expectNone();

    // subscription.created reaches the registered endpoint.
    await expect.poll(() => receiver!.received.filter((r) => r.json.type === "subscription.created").length, { timeout: 30_000 }).toBe(1);
    const created = receiver.received.find((r) => r.json.type === "subscription.created")!.json;
    const contractGid = created.data.contract_id as string;

    // The Subscriptions page shows it with the NEXT rule's first charge.
    await navigate(page, "Subscriptions");
    await expect(app.locator("h1")).toHaveText("Subscriptions");
    await expect(app.getByText("House coffee").first()).toBeVisible();
    const row = await adminApi(request, key, `/subscriptions/${encodeURIComponent(contractGid)}`);
    expect(row.body.next_billing_at.slice(0, 10)).toBe(first);
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    // A billing run on that date charges it and moves it to the next 15th.
    cli("billing", "run", "--shop", shop, "--at", `${first}T23:00:00Z`);
    await expect
      .poll(async () => (await adminApi(request, key, `/subscriptions/${encodeURIComponent(contractGid)}`)).body.next_billing_at.slice(0, 10), {
        timeout: 30_000,
      })
      .toBe(monthAfter(first));

    // A skip moves it one anchor further.
    const skip = await adminApi(request, key, `/subscriptions/${encodeURIComponent(contractGid)}/skip`, {
      method: "POST",
      headers: { "Idempotency-Key": `skip-${Date.now()}` },
    });
    expect(skip.status).toBe(200);
    expect(skip.body.next_billing_at.slice(0, 10)).toBe(monthAfter(first, 2));
    await store.close();
    console.expectNone();
  });
}
