// The root page in a real browser: what this is, a working link into the simulated Shopify
// admin, no console errors, no serious axe violations, usable at 375 px.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { SIM, watchConsole } from "./admin-support";

for (const width of [1280, 375]) {
  test(`the root page at ${width} px says what this is and leads into the simulated admin`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Subscriptions Service" })).toBeVisible();
    await expect(page.getByText("embedded Shopify app for recurring revenue")).toBeVisible();
    const open = page.getByRole("link", { name: "Open demo-shop in the simulated admin" });
    await expect(open).toHaveAttribute("href", `${SIM}/admin/demo-shop.myshopify.com`);
    await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    console.expectNone();
  });
}

test("/app opened outside Shopify admin shows the Shopify login form", async ({ page }) => {
  const console = watchConsole(page);
  await page.goto("/app");
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.getByLabel("Shop domain").fill("not a shop!");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("not a shop domain")).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  console.expectNone();
});
