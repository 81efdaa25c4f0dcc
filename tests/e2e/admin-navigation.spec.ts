// The embedded admin's frame: the app's <ui-nav-menu> becomes the simulated admin's sidebar, and
// every page opens from it, at desktop width and at 375 px, without console errors or serious
// axe-core violations.
import { expect, test } from "@playwright/test";
import { ADMIN_NAV } from "../../app/embedded/nav";
import { API_KEY, SIM, adminNav, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, watchConsole } from "./admin-support";

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "375 px", width: 375, height: 812 },
]) {
  test(`every page opens from the admin's menu (${viewport.name})`, async ({ page, request }) => {
    test.setTimeout(180_000); // every menu entry, with axe on each
    await page.setViewportSize(viewport);
    const console = watchConsole(page);
    const shop = await newShop(request, "e2e-nav");
    const app = await openApp(page, shop);

    // Admin frames the app at the viewport's full height below its 44 px bar, at every width.
    const frame = await page.locator("iframe#app-iframe").boundingBox();
    expect(frame?.height).toBeGreaterThanOrEqual(viewport.height - 44 - 1);

    const toggle = page.getByRole("button", { name: "Menu" });
    if (viewport.width < 768) await toggle.click();
    const nav = adminNav(page);
    await expect(nav.getByRole("link")).toHaveText(ADMIN_NAV.map((i) => i.label));
    if (viewport.width < 768) await toggle.click();

    for (const item of ADMIN_NAV) {
      await navigate(page, item.label);
      const heading = item.href === "/app" ? "Subscriptions Service" : item.label;
      await expect(app.locator("h1").first()).toHaveText(heading);
      // admin's address bar follows the app, as on admin.shopify.com/store/<store>/apps/<app>/<path>
      await expect(page).toHaveURL(`${SIM}/admin/${shop}/apps/${API_KEY}${item.href}`);
      await expect(page.locator("#app-nav a[aria-current=page]")).toHaveText(item.label); // hidden at 375 px until opened
      await expectAccessible(page);
      if (viewport.width < 768) await expectNoHorizontalOverflow(page);
    }
    console.expectNone();
  });
}

test("a deep link into the app opens that page inside admin", async ({ page, request }) => {
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-deep");
  await openApp(page, shop); // first open installs the app (token exchange)
  const app = await openApp(page, shop, "/app/keys");
  await expect(app.locator("h1").first()).toHaveText("API keys");
  console.expectNone();
});
