// Plans page: a merchant creates an anchored plan (charged on the 15th, cutoff 3 days, NEXT,
// 10 % off) for a product picked with App Bridge's resource picker, sees the preview the schedule
// engine computes, saves; Shopify (the simulator) holds the group with its anchor, GET /plans
// shows the documented schedule object and the schedule preview endpoint answers the same first
// charge. A Shopify refusal lands on its field; deleting asks first. Desktop and 375 px, no
// console errors, no serious axe violations.
import { expect, test } from "@playwright/test";
import { adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

for (const width of [1280, 375]) {
  test(`a merchant creates an anchored plan with the resource picker and a preview (${width} px)`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    const shop = await newShop(request, "e2e-plans");
    const product = await simCall<{ id: string; variants: { id: string }[] }>(request, "POST", `/shops/${shop}/products`, {
      title: "House coffee",
      variants: [{ title: "250 g", price: "18.00" }],
    });
    await openApp(page, shop);
    cli("shops", "plan", "--shop", shop, "--plan", "pro");
    await navigate(page, "Plans");
    const app = page.frameLocator("iframe#app-iframe");
    await expect(app.locator("h1")).toHaveText("Plans");
    await expect(app.getByText("Create your first subscription plan")).toBeVisible();
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    await app.getByRole("link", { name: "Create plan" }).first().click();
    await expect(app.locator("h1")).toHaveText("Create plan");
    await app.getByLabel("Name", { exact: true }).fill("Coffee club");
    await app.getByLabel("Merchant code").fill("coffee-club");
    // The resource picker is admin's dialog, outside the app's frame.
    await app.getByRole("button", { name: "Select products" }).click();
    const picker = page.getByRole("dialog", { name: "Select products" });
    await picker.getByRole("checkbox", { name: "House coffee", exact: true }).check();
    await picker.getByRole("button", { name: "Select" }).click();
    await expect(app.getByText("House coffee")).toBeVisible();

    // Defaults: anchored on the 15th, cutoff 3, NEXT; 10 % off.
    await expect(app.getByLabel("Charge day of the month")).toHaveValue("15");
    await expect(app.getByLabel("Cutoff days")).toHaveValue("3");
    await app.getByRole("textbox", { name: "Sign-up date" }).fill("2026-12-13");
    await expect(app.getByTestId("preview-first-charge")).toHaveText("2027-01-15");
    await app.getByRole("textbox", { name: "Sign-up date" }).fill("2026-11-27");
    await expect(app.getByTestId("preview-first-charge")).toHaveText("2026-12-15");
    await expect(app.getByText("2027-06-15")).toBeVisible(); // the sixth charge after the first
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    // A refusal from Shopify on its field: maximum below minimum.
    await app.getByLabel("Minimum orders").fill("6");
    await app.getByLabel("Maximum orders").fill("3");
    await app.getByRole("button", { name: "Save plan" }).click();
    await expect(app.getByText("Max cycles must be greater than min cycles")).toBeVisible();
    await app.getByLabel("Minimum orders").fill("");
    await app.getByLabel("Maximum orders").fill("");
    await app.getByRole("button", { name: "Save plan" }).click();
    await expect(app.locator("h1")).toHaveText("Plans");
    await expect(app.getByRole("button", { name: "Coffee club" })).toBeVisible();

    const groups = await simCall<
      { id: string; variantIds: string[]; sellingPlans: { policies: { anchors: unknown[]; cutoff: number; preAnchorBehavior: string } }[] }[]
    >(request, "GET", `/shops/${shop}/selling-plan-groups`);
    expect(groups).toHaveLength(1);
    expect(groups[0].variantIds).toEqual(product.variants.map((v) => v.id));
    expect(groups[0].sellingPlans[0].policies).toMatchObject({ anchors: [{ type: "MONTHDAY", day: 15 }], cutoff: 3, preAnchorBehavior: "NEXT" });

    const key = JSON.parse(cli("keys", "mint", "--shop", shop, "--name", "plans", "--scopes", "read:plans")).key as string;
    const plans = await adminApi(request, key, "/plans");
    expect(plans.body.data[0].schedule).toEqual({
      mode: "anchored",
      anchor_day: 15,
      anchor_months: [],
      cutoff_days: 3,
      pre_anchor_behavior: "NEXT",
      ship_day: null,
      label: "Charged on the 15th, every month, 10% off",
    });
    const preview = await adminApi(request, key, `/plans/${encodeURIComponent(groups[0].id)}/schedule?start=2026-11-27&count=2`);
    expect(preview.body.charges.map((c: { charge_date: string }) => c.charge_date)).toEqual(["2026-12-15", "2027-01-15"]);

    // Delete asks first, then the plan is gone from the list and from Shopify.
    await app.getByRole("button", { name: "Delete Coffee club" }).click();
    await expect(app.getByRole("dialog")).toContainText("Delete this plan?");
    await expectAccessible(page);
    await app.getByRole("button", { name: "Delete plan" }).click();
    await expect(app.getByText("Create your first subscription plan")).toBeVisible();
    expect(await simCall(request, "GET", `/shops/${shop}/selling-plan-groups`)).toEqual([]);
    console.expectNone();
  });
}
