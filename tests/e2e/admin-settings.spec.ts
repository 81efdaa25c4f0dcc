// Settings forms, allowed origins and the keys list, as a merchant meets them in the simulated
// admin at desktop and phone widths (docs/decisions/131, 132, 150); import presets (151) are a step
// of the merchant's journey (tests/e2e/merchant-journey.spec.ts):
// - an edit shows App Bridge's save bar; leaving through admin's navigation asks first, Stay keeps
//   the edit, Save in the bar saves it, Leave page drops it; a bad value is refused in words;
// - Storefront access refuses an address in words and saves an origin;
// - 46 keys are an IndexTable of pages of 20, and the Free plan says keys will not work;
// No console errors, no serious axe violations, no sideways scroll at 375 px.
import { expect, test, type Page } from "@playwright/test";
import { cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, seed, watchConsole } from "./admin-support";

const saveBar = (page: Page) => page.getByRole("region", { name: "Unsaved changes" });

for (const width of [1280, 375]) {
  test.describe(`${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height: 900 }));

    test("a settings form shows the save bar, warns before leaving with unsaved edits, and says what is wrong in words", async ({ page, request }) => {
      test.setTimeout(120_000);
      const console = watchConsole(page);
      const shop = await newShop(request, "e2e-savebar");
      const app = await openApp(page, shop, "/app/billing");
      await expect(app.locator("h1")).toHaveText("Billing settings");
      const retry = app.getByLabel("Retry after (days)");
      await expect(retry).toHaveValue("1, 3, 7");
      await expect(saveBar(page)).toBeHidden();

      await retry.fill("2, 4");
      await expect(saveBar(page)).toBeVisible();
      await expectAccessible(page);
      if (width === 375) await expectNoHorizontalOverflow(page);

      // Leaving through admin's navigation asks; Stay keeps the edit.
      await navigate(page, "Portal settings");
      const leave = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
      await expect(leave.getByText("Leaving this page will delete all unsaved changes.")).toBeVisible();
      await leave.getByRole("button", { name: "Stay" }).click();
      await expect(leave).toBeHidden();
      await expect(app.locator("h1")).toHaveText("Billing settings");
      await expect(retry).toHaveValue("2, 4");

      // A bad value: refused on its field in words; the bar stays.
      await retry.fill("2, soon");
      await saveBar(page).getByRole("button", { name: "Save" }).click();
      await expect(app.getByText("write whole days separated by commas, such as 1, 3, 7")).toBeVisible();
      await expect(app.getByText(/expected|NaN|invalid_request/)).toHaveCount(0);
      await expect(saveBar(page)).toBeVisible();

      // Save in the bar saves and hides it.
      await retry.fill("2, 4");
      await saveBar(page).getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Billing settings saved")).toBeVisible();
      await expect(saveBar(page)).toBeHidden();

      // Discard in the bar puts the saved value back.
      await retry.fill("5");
      await saveBar(page).getByRole("button", { name: "Discard" }).click();
      await expect(retry).toHaveValue("2, 4");
      await expect(saveBar(page)).toBeHidden();

      // Leave page drops the edit and goes.
      await retry.fill("9");
      await navigate(page, "Portal settings");
      await page.getByRole("dialog", { name: "Leave page with unsaved changes?" }).getByRole("button", { name: "Leave page" }).click();
      await expect(app.locator("h1")).toHaveText("Portal settings");
      await expect(saveBar(page)).toBeHidden();
      await navigate(page, "Billing settings");
      await expect(app.getByLabel("Retry after (days)")).toHaveValue("2, 4");

      // Without edits, the navigation does not ask.
      await navigate(page, "Storefront access");
      await expect(app.locator("h1")).toHaveText("Storefront access");
      console.expectNone();
    });

    test("Storefront access refuses an address in words and saves an origin", async ({ page, request }) => {
      test.setTimeout(90_000);
      const console = watchConsole(page);
      const shop = await newShop(request, "e2e-origins");
      const app = await openApp(page, shop, "/app/origins");
      await expect(app.locator("h1")).toHaveText("Storefront access");
      await expect(app.getByText(`https://${shop}`)).toBeVisible();
      const field = app.getByLabel("Origins, one per line");
      await field.fill("portal.brand.example");
      await saveBar(page).getByRole("button", { name: "Save" }).click();
      await expect(app.getByText("“portal.brand.example” is not a web address. Write it with its scheme, such as https://shop.example.com.")).toBeVisible();
      await field.fill("https://Portal.Brand.example/\nhttp://localhost:3000");
      await saveBar(page).getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Allowed origins saved")).toBeVisible();
      await expect(saveBar(page)).toBeHidden();
      await page.reload();
      await expect(page.frameLocator("iframe#app-iframe").getByLabel("Origins, one per line")).toHaveValue(
        "https://portal.brand.example\nhttp://localhost:3000",
      );
      await expectAccessible(page);
      if (width === 375) await expectNoHorizontalOverflow(page);
      console.expectNone();
    });

    test("46 keys are a paged IndexTable, and on the Free plan minting says keys will not work", async ({ page, request }) => {
      test.setTimeout(120_000);
      const console = watchConsole(page);
      const shop = await newShop(request, "e2e-manykeys");
      await openApp(page, shop);
      cli("shops", "plan", "--shop", shop, "--plan", "free");
      seed("keys", shop, "46");
      const app = await openApp(page, shop, "/app/keys");
      await expect(app.locator("h1")).toHaveText("API keys");
      await expect(app.getByText("Keys (46)")).toBeVisible();
      await expect(app.getByText("Keys will not work until you upgrade to Pro")).toBeVisible();
      await expect(app.getByText(/plan_upgrade_required/)).toHaveCount(0);
      await expect(app.getByText("Integration 46")).toBeVisible();
      await expect(app.getByText("Integration 26")).toHaveCount(0);
      await expect(app.getByText("Page 1 of 3")).toBeVisible();
      const height = await page
        .frames()
        .find((f) => f.url().includes("/app/keys"))!
        .evaluate(() => document.documentElement.scrollHeight);
      expect(height, "the page's height in px").toBeLessThan(width === 375 ? 9000 : 4500);
      await expectAccessible(page);
      if (width === 375) await expectNoHorizontalOverflow(page);

      await app.getByRole("button", { name: "Next page" }).click();
      await expect(app.getByText("Page 2 of 3")).toBeVisible();
      await expect(app.getByText("Integration 26")).toBeVisible();
      await expect(app.getByText("Integration 46")).toHaveCount(0);

      // Minting on Free: the shown-once key says it will not work yet.
      await app.getByLabel("Name").fill("ERP");
      await app.getByRole("checkbox", { name: "read:subscriptions", exact: true }).check();
      await app.getByRole("button", { name: "Mint key" }).click();
      const dialog = app.getByRole("dialog");
      await expect(dialog.getByText("It will not work until the shop upgrades to Pro.")).toBeVisible();
      await dialog.getByRole("button", { name: "Done" }).click();
      console.expectNone();
    });
  });
}
