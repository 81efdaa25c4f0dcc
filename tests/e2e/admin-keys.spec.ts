// API keys page: a merchant mints a key with chosen scopes, copies it from the shown-once modal,
// and the key works on the Admin API with exactly those scopes; usage is counted per key;
// revoking it makes the API answer 401 credential_revoked. Publishable keys are refused by the
// Admin API. The Risk Center lists a write-scoped key.
import { expect, test, type Page } from "@playwright/test";
import { adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, watchConsole } from "./admin-support";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function mint(page: Page, app: ReturnType<Page["frameLocator"]>, name: string, scopes: string[], kind: "Secret" | "Publishable" = "Secret") {
  if (kind === "Publishable") await app.getByText(/^Publishable key \(svc_pk_\)/).click();
  await app.getByLabel("Name").fill(name);
  for (const s of scopes) await app.getByRole("checkbox", { name: s, exact: true }).check();
  await app.getByRole("button", { name: "Mint key" }).click();
  const dialog = app.getByRole("dialog");
  await expect(dialog.getByText("You will not see this key again")).toBeVisible();
  return dialog;
}

test("a minted key works on the Admin API with exactly its scopes, shows its usage, and stops at revoke", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-keys");
  await openApp(page, shop); // installs the app
  cli("shops", "plan", "--shop", shop, "--plan", "pro"); // the support override; billing has its own test
  await navigate(page, "API keys");
  const app = page.frameLocator("iframe#app-iframe");
  await expect(app.locator("h1")).toHaveText("API keys");

  // write:subscriptions is off by default and warns when ticked; the unbuilt write scopes are not offered.
  const write = app.getByRole("checkbox", { name: "write:subscriptions", exact: true });
  await expect(write).not.toBeChecked();
  await expect(app.getByText("This key can cancel any subscription")).toHaveCount(0);
  await write.check();
  await expect(app.getByText("This key can cancel any subscription")).toBeVisible();
  await write.uncheck();
  await expect(app.getByText("This key can cancel any subscription")).toHaveCount(0);
  for (const unbuilt of ["write:plans", "write:bundles", "write:mixmatch", "write:gifts", "write:winback"]) {
    await expect(app.getByRole("checkbox", { name: unbuilt })).toHaveCount(0);
  }
  await expect(app.getByText("See MRR, churn, cohorts and recovery figures.")).toBeVisible();

  const dialog = await mint(page, app, "ERP sync", ["read:subscriptions", "read:analytics"]);
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Copy key" }).click();
  await expect(dialog.getByText("Copied to the clipboard")).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^svc_sk_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByLabel("API key")).toHaveValue(key);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(app.getByRole("dialog")).toHaveCount(0);

  // exactly those scopes
  expect((await adminApi(request, key, "/subscriptions")).status).toBe(200);
  expect((await adminApi(request, key, "/analytics/mrr")).status).toBe(200);
  const plans = await adminApi(request, key, "/plans");
  expect(plans.status).toBe(403);
  expect(plans.body.error.code).toBe("insufficient_scope");
  const pause = await adminApi(request, key, "/subscriptions/gid%3A%2F%2Fshopify%2FSubscriptionContract%2F1/pause", {
    method: "POST",
    headers: { "Idempotency-Key": "k1" },
  });
  expect(pause.body.error.code).toBe("insufficient_scope");

  // its row: prefix, scopes, and the kernel's usage count (2 OK, 2 refused)
  const card = app.getByRole("row").filter({ hasText: "ERP sync" });
  await expect(card.getByText(key.slice(0, 31))).toBeVisible();
  await expect(card).not.toContainText(key.slice(31));
  await expect(card.getByText("read:subscriptions, read:analytics")).toBeVisible();
  await expect(async () => {
    await navigate(page, "API keys");
    await expect(card.getByText("4 requests, 2 refused, 0 failed, 0 rate-limited")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });

  // revoke, with confirmation
  await card.getByRole("button", { name: "Revoke ERP sync" }).click();
  const confirm = app.getByRole("dialog");
  await expect(confirm.getByText("Every request made with this key is refused at once")).toBeVisible();
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("status").getByText("Key revoked")).toBeVisible();
  await expect(card.getByText("Revoked")).toBeVisible();
  const after = await adminApi(request, key, "/subscriptions");
  expect(after.status).toBe(401);
  expect(after.body.error.code).toBe("credential_revoked");
  console.expectNone();
});

test("publishable keys are minted for the storefront and refused by the Admin API", async ({ page, request }) => {
  const console = watchConsole(page);
  await page.setViewportSize({ width: 375, height: 812 });
  const shop = await newShop(request, "e2e-pk");
  await openApp(page, shop);
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  await navigate(page, "API keys");
  const app = page.frameLocator("iframe#app-iframe");
  await expect(app.locator("h1")).toHaveText("API keys");
  await app.getByText(/^Publishable key \(svc_pk_\)/).click();
  // a publishable key may carry only the catalogue reads
  await expect(app.getByRole("checkbox", { name: "read:subscriptions" })).toHaveCount(0);
  const dialog = await mint(page, app, "Theme", ["read:plans"]);
  const key = await dialog.getByLabel("API key").inputValue();
  expect(key).toMatch(/^svc_pk_/);
  await expectNoHorizontalOverflow(page);
  await dialog.getByRole("button", { name: "Done" }).click();
  const refused = await adminApi(request, key, "/plans");
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe("invalid_credential");
  console.expectNone();
});

test("the Risk Center lists a key that can write subscriptions", async ({ page, request }) => {
  test.setTimeout(90_000); // mint, Risk Center and back on a loaded machine: more than the default 30 s
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-risk");
  await openApp(page, shop);
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  await navigate(page, "API keys");
  const app = page.frameLocator("iframe#app-iframe");
  const dialog = await mint(page, app, "Ops console", ["read:subscriptions", "write:subscriptions"]);
  await dialog.getByRole("button", { name: "Done" }).click();
  await navigate(page, "Risk Center");
  await expect(app.locator("h1")).toHaveText("Risk Center");
  const risk = app
    .getByRole("list", { name: "Open risks" })
    .getByRole("listitem")
    .filter({ hasText: 'API key "Ops console" can change subscriptions (write:subscriptions)' });
  await expect(risk).toBeVisible();
  await expect(risk.getByText("Medium")).toBeVisible();
  await risk.getByRole("link", { name: "Review API keys" }).click();
  await expect(app.locator("h1")).toHaveText("API keys");
  await expectAccessible(page);
  console.expectNone();
});
