// Mix & Match page (docs/decisions/107-mix-match-editor.md): a merchant creates a selection with a
// category picked with App Bridge's resource picker (an empty category is refused on its field, and
// so is a post naming another shop's variant, on that entry);
// saving rewrites the product's app.mix_match metafield at once with the new entries, which the
// theme block reads. Desktop and 375 px, no console errors, no serious axe violations.
import { expect, test } from "@playwright/test";
import {
  cli,
  expectAccessible,
  expectNoHorizontalOverflow,
  forgeNextPost,
  navigate,
  newShop,
  openApp,
  otherShopsVariant,
  seed,
  simCall,
  watchConsole,
} from "./admin-support";

for (const width of [1280, 375]) {
  test(`a merchant creates a Mix & Match selection and the storefront metafield follows (${width} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const console = watchConsole(page);
    const shop = await newShop(request, "e2e-mixmatch");
    const foreign = await otherShopsVariant(request);
    const product = await simCall<{ id: string; variants: { id: string }[] }>(request, "POST", `/shops/${shop}/products`, {
      title: "Tea",
      variants: [
        { title: "Green", price: "4.00" },
        { title: "Black", price: "3.50" },
      ],
    });
    const group = await simCall<{ id: string; sellingPlans: { id: string }[] }>(request, "POST", `/shops/${shop}/selling-plan-groups`, {
      name: "Tea club",
      plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
      variantIds: product.variants.map((v) => v.id),
    });
    await openApp(page, shop);
    cli("shops", "plan", "--shop", shop, "--plan", "pro");
    seed("box-plan", shop, group.id, group.sellingPlans[0].id, "Tea club");

    await navigate(page, "Mix & Match");
    const app = page.frameLocator("iframe#app-iframe");
    await expect(app.locator("h1")).toHaveText("Mix & Match");
    await expect(app.getByText("Create your first Mix & Match selection")).toBeVisible();
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);

    await app.getByRole("link", { name: "Create selection" }).first().click();
    await expect(app.locator("h1")).toHaveText("Create selection");
    await app.getByLabel("Title").fill("Pick 2 teas");
    await app.getByLabel("Plan").selectOption({ label: "Tea club" });
    await app.getByLabel("Fewest items").fill("2");
    await app.getByLabel("Most items").fill("3");
    await app.getByLabel("Category 1 name").fill("Teas");
    await app.getByRole("button", { name: "Save selection" }).click();
    await expect(app.getByText("Add at least one product to the category")).toBeVisible();

    await app.getByRole("button", { name: "Select products for category 1" }).click();
    const picker = page.getByRole("dialog", { name: "Select products" });
    await picker.getByRole("checkbox", { name: "Tea", exact: true }).check();
    await picker.getByRole("button", { name: "Select" }).click();
    await expect(app.getByText("Tea – Black")).toBeVisible();
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    // A post naming another shop's variant (the picker never offers one) is refused on that entry; nothing is saved.
    await forgeNextPost(page, "/app/mixmatch/new", "form", (form) => (form.categories[0].entries[1].variantId = foreign));
    await app.getByRole("button", { name: "Save selection" }).click();
    await expect(app.getByText("This variant is not in your shop's catalogue")).toBeVisible();
    await expect(app.locator("h1")).toHaveText("Create selection");
    const before = await simCall<{ ownerId: string; key: string }[]>(request, "GET", `/shops/${shop}/metafields`);
    expect(before.some((m) => m.key === "mix_match")).toBe(false);
    await expectAccessible(page);
    await app.getByRole("button", { name: "Save selection" }).click();
    await expect(app.locator("h1")).toHaveText("Mix & Match");
    await expect(app.getByRole("link", { name: "Pick 2 teas" })).toBeVisible();

    const metafields = await simCall<{ ownerId: string; key: string; value: string }[]>(request, "GET", `/shops/${shop}/metafields`);
    const mm = metafields.find((m) => m.ownerId === product.id && m.key === "mix_match");
    expect(JSON.parse(mm!.value)).toMatchObject({
      title: "Pick 2 teas",
      min_items: 2,
      max_items: 3,
      price_cents: 700,
      categories: [{ title: "Teas", entries: product.variants.map((v) => ({ variant_id: v.id })) }],
    });
    console.expectNone();
  });
}
