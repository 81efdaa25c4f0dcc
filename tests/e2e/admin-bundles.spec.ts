// Bundles page (docs/decisions/105-bundle-builder.md): a merchant creates a build-a-box bundle on
// a plan (a cutoff longer than the billing interval is refused on its field), builds next month's
// menu with App Bridge's resource picker (an empty menu is refused, and so is a post naming another
// shop's variant, on that item), sets limits and the fallback box, reviews the impact and publishes; the Admin API shows the published menu. Desktop and
// 375 px, no console errors, no serious axe violations.
import { expect, test } from "@playwright/test";
import {
  adminApi,
  cli,
  expectAccessible,
  expectNoHorizontalOverflow,
  fillBoxBundle,
  forgeNextPost,
  navigate,
  otherShopsVariant,
  pickSnacks,
  snackBoxShop,
  watchConsole,
} from "./admin-support";

for (const width of [1280, 375]) {
  test(`a merchant creates a build-a-box bundle and publishes next month's menu (${width} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    const { shop } = await snackBoxShop(page, request, "e2e-bundles");
    const foreign = await otherShopsVariant(request);

    await navigate(page, "Bundles");
    const app = page.frameLocator("iframe#app-iframe");
    await expect(app.locator("h1")).toHaveText("Bundles");
    await expect(app.getByText("Create your first bundle")).toBeVisible();
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    await app.getByRole("link", { name: "Create bundle" }).first().click();
    // A cutoff as long as a month would close picking before it opens: refused on its field.
    await fillBoxBundle(app, { size: "Regular", price: "30.00", items: 2, cutoffDays: 40 });
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

    await pickSnacks(page, app);
    await app.getByLabel("In the fallback box: Snacks – Crisps").fill("1");
    await app.getByLabel("In the fallback box: Snacks – Nuts").fill("1");
    // A post naming another shop's variant (the picker never offers one) is refused on that item; nothing is saved.
    await forgeNextPost(page, `/menus/${period}`, "items", (items) => (items[2].variantId = foreign));
    await app.getByRole("button", { name: "Save draft" }).click();
    await expect(app.getByText("This variant is not in your shop's catalogue")).toBeVisible();
    await expectAccessible(page);
    const key = JSON.parse(cli("keys", "mint", "--shop", shop, "--name", "boxes", "--scopes", "read:bundles")).key as string;
    const bundles = await adminApi(request, key, "/bundles");
    expect((await adminApi(request, key, `/bundles/${bundles.body.data[0].id}/boxes`)).body.data).toEqual([]);
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

    expect((await adminApi(request, key, "/bundles")).body.data[0]).toMatchObject({
      title: "Snack box",
      selection_cutoff_days: 3,
      box_size_min: 2,
      box_size_max: 2,
    });
    const boxes = await adminApi(request, key, `/bundles/${bundles.body.data[0].id}/boxes`);
    expect(boxes.body.data[0]).toMatchObject({ period, published: true });
    expect(boxes.body.data[0].items.map((i: { variant_title: string }) => i.variant_title)).toEqual(["Crisps", "Nuts", "Figs"]);
    console.expectNone();
  });
}
