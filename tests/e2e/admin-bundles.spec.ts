// Bundles page (docs/decisions/105-bundle-builder.md): a merchant creates a build-a-box bundle on
// a plan (a cutoff longer than the billing interval is refused on its field), builds next month's
// menu with App Bridge's resource picker (an empty menu is refused), sets limits and the fallback
// box, reviews the impact and publishes; the Admin API shows the published menu. Desktop and
// 375 px, no console errors, no serious axe violations.
import { expect, test } from "@playwright/test";
import { adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, seed, simCall, watchConsole } from "./admin-support";

for (const width of [1280, 375]) {
  test(`a merchant creates a build-a-box bundle and publishes next month's menu (${width} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    const shop = await newShop(request, "e2e-bundles");
    const product = await simCall<{ id: string; variants: { id: string }[] }>(request, "POST", `/shops/${shop}/products`, {
      title: "Snacks",
      variants: [
        { title: "Crisps", price: "3.00" },
        { title: "Nuts", price: "4.50" },
        { title: "Figs", price: "5.00" },
      ],
    });
    const group = await simCall<{ id: string; sellingPlans: { id: string }[] }>(request, "POST", `/shops/${shop}/selling-plan-groups`, {
      name: "Snack box plan",
      plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
      variantIds: [product.variants[0].id],
    });
    await openApp(page, shop);
    cli("shops", "plan", "--shop", shop, "--plan", "pro");
    seed("box-plan", shop, group.id, group.sellingPlans[0].id, "Snack box plan");

    await navigate(page, "Bundles");
    const app = page.frameLocator("iframe#app-iframe");
    await expect(app.locator("h1")).toHaveText("Bundles");
    await expect(app.getByText("Create your first bundle")).toBeVisible();
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    await app.getByRole("link", { name: "Create bundle" }).first().click();
    await expect(app.locator("h1")).toHaveText("Create bundle");
    await app.getByLabel("Title").fill("Snack box");
    await app.getByLabel("Plan").selectOption({ label: "Snack box plan" });
    await app.getByLabel("Size 1 name").fill("Regular");
    await app.getByLabel("Size 1 price").fill("30.00");
    await app.getByLabel("Size 1 items").fill("2");
    // A cutoff as long as a month would close picking before it opens: refused on its field.
    await app.getByLabel("Selection cutoff (days before the charge)").fill("40");
    await app.getByRole("button", { name: "Save bundle" }).click();
    await expect(app.getByText("The cutoff must be shorter than the plan's billing interval")).toBeVisible();
    await expectAccessible(page);
    await app.getByLabel("Selection cutoff (days before the charge)").fill("3");
    await app.getByRole("button", { name: "Save bundle" }).click();
    await expect(app.locator("h1")).toHaveText("Snack box");
    await expect(app.getByText("No menus yet")).toBeVisible();
    await expectNoHorizontalOverflow(page);

    const build = app.getByRole("link", { name: /^Build the \d{4}-\d{2} menu$/ }).first();
    const period = ((await build.textContent()) ?? "").match(/\d{4}-\d{2}/)![0];
    await build.click();
    await expect(app.locator("h1")).toContainText(`Snack box: ${period} menu`);
    // Publishing an empty menu is refused.
    await app.getByRole("button", { name: "Review and publish" }).click();
    await expect(app.getByText("Add at least one item to the menu")).toBeVisible();

    await app.getByRole("button", { name: "Select products" }).click();
    const picker = page.getByRole("dialog", { name: "Select products" });
    await picker.getByRole("checkbox", { name: "Snacks", exact: true }).check();
    await picker.getByRole("button", { name: "Select" }).click();
    await expect(app.getByRole("heading", { name: "Snacks – Figs" })).toBeVisible();
    await app.getByLabel("In the fallback box: Snacks – Crisps").fill("1");
    await app.getByLabel("In the fallback box: Snacks – Nuts").fill("1");
    await app.getByRole("button", { name: "Save draft" }).click();
    await expect(app.getByText("Draft", { exact: true })).toBeVisible();
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    await app.getByRole("button", { name: "Review and publish" }).click();
    const dialog = app.getByRole("dialog");
    await expect(dialog.getByText(`0 subscribers ship in ${period}; 0 already picked.`)).toBeVisible();
    await expect(dialog.getByText("0 subscribers will get the fallback box unless they pick before the cutoff.")).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Publish menu" }).click();
    await expect(app.getByText("Menu published", { exact: true }).first()).toBeVisible();

    const key = JSON.parse(cli("keys", "mint", "--shop", shop, "--name", "boxes", "--scopes", "read:bundles")).key as string;
    const bundles = await adminApi(request, key, "/bundles");
    expect(bundles.body.data[0]).toMatchObject({ title: "Snack box", selection_cutoff_days: 3, box_size_min: 2, box_size_max: 2 });
    const boxes = await adminApi(request, key, `/bundles/${bundles.body.data[0].id}/boxes`);
    expect(boxes.body.data[0]).toMatchObject({ period, published: true });
    expect(boxes.body.data[0].items.map((i: { variant_title: string }) => i.variant_title)).toEqual(["Crisps", "Nuts", "Figs"]);
    console.expectNone();
  });
}
