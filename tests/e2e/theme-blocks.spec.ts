// The theme app extension in Chromium, fed by what the app actually writes for the demo shop:
// the demo seed runs against this e2e stack, the storefront metafields are read back from the
// simulated platform, the Liquid blocks are rendered with liquidjs into a product page, and the
// shopper's browser does the rest: the product form posts the bundle's selling plan, and a
// keyboard-picked Mix & Match selection sends one /cart/add.js body whose every line carries
// the selling plan and the _rc_mm_group property.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { E2E_SIMULATOR_URL as SIM } from "../../playwright.config";
import { productPage, renderBlock, THEME_ROOT } from "../support/theme";
import type { BundlePlanValue, MixMatchValue } from "../../app/domain/storefront/metafields";
import { DEMO_SHOP, seedDemo } from "./admin-support";

const SHOP = DEMO_SHOP;
const STORE = "http://storefront.test";
type Metafield = { ownerId: string; namespace: string; key: string; value: string };
let metafields: Metafield[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  seedDemo();
  metafields = ((await (await request.get(`${SIM}/_sim/shops/${SHOP}/metafields`)).json()) as Metafield[]).filter((m) => m.namespace === "$app");
});

/** The demo product carrying both blocks' metafields (the Coffee Trio is sold on it). */
function demoProduct() {
  const trio = metafields.filter((m) => m.key === "mix_match" && (JSON.parse(m.value) as MixMatchValue).cart_group_id === "mm-coffee-trio");
  expect(trio.length, "the seed wrote the Coffee Trio's app.mix_match").toBeGreaterThan(0);
  const mix = trio.find((m) => metafields.some((b) => b.key === "bundle_plan" && b.ownerId === m.ownerId)) ?? trio[0];
  const bundle = metafields.find((m) => m.key === "bundle_plan" && m.ownerId === mix.ownerId);
  return { productId: mix.ownerId, mixJson: mix.value, bundleJson: bundle?.value };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const entryLabel = (e: { product_title: string; variant_title: string | null }) =>
  new RegExp(`^${escapeRe(e.product_title)}${e.variant_title ? ` \\(${escapeRe(e.variant_title)}\\)` : ""}`);

async function openProductPage(page: Page, html: string) {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  const cartBodies: unknown[] = [];
  await page.route(`${STORE}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/products/demo") return route.fulfill({ contentType: "text/html", body: html });
    if (url.pathname === "/extensions/subscriptions-theme/assets/mix-match.js") {
      return route.fulfill({ contentType: "text/javascript", body: readFileSync(`${THEME_ROOT}/assets/mix-match.js`, "utf8") });
    }
    if (url.pathname === "/cart/add.js") {
      cartBodies.push(route.request().postDataJSON());
      return route.fulfill({ contentType: "application/json", body: JSON.stringify({ items: [] }) });
    }
    if (url.pathname === "/cart") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Cart</title><h1>Cart</h1>" });
    return route.fulfill({ status: 404, body: "" });
  });
  await page.goto(`${STORE}/products/demo`);
  return { errors, cartBodies };
}

test("the bundle block puts the demo bundle's live selling plan on the product form", async ({ page }) => {
  const { bundleJson } = demoProduct();
  expect(bundleJson, "the demo product also carries app.bundle_plan").toBeTruthy();
  const bundle = JSON.parse(bundleJson!) as BundlePlanValue;
  const block = await renderBlock("bundle-plan", { metafields: { bundle_plan: bundleJson } });
  const { errors } = await openProductPage(page, productPage(block));
  const posted = await page.evaluate(() => Object.fromEntries(new FormData(document.getElementById("product-form-main") as HTMLFormElement)));
  expect(posted.selling_plan).toBe(bundle.selling_plan_id!.split("/").pop());
  await expect(page.getByText(bundle.title)).toBeVisible();
  expect(errors).toEqual([]);
});

test("a keyboard-picked Mix & Match selection sends one cart body: every line with the selling plan and _rc_mm_group", async ({ page }) => {
  const { mixJson } = demoProduct();
  const mix = JSON.parse(mixJson) as MixMatchValue;
  const block = await renderBlock("mix-match", { metafields: { mix_match: mixJson } });
  const { errors, cartBodies } = await openProductPage(page, productPage(block));

  const add = page.getByRole("button", { name: "Add selection to cart" });
  const status = page.getByRole("status");
  await expect(add).toBeDisabled();
  await expect(status).toHaveText(`0 of ${mix.max_items} selected`);

  // Pick max_items entries with the keyboard only: focus each checkbox, press Space.
  const entries = mix.categories.flatMap((c) => c.entries);
  const picks = entries.slice(0, mix.max_items);
  for (const e of picks) {
    const box = page.getByRole("checkbox", { name: entryLabel(e) });
    await box.focus();
    await page.keyboard.press("Space");
    await expect(box).toBeChecked();
  }
  await expect(status).toHaveText(`${mix.max_items} of ${mix.max_items} selected`);
  // Past max_items the remaining entries cannot be picked.
  for (const e of entries.slice(mix.max_items)) {
    await expect(page.getByRole("checkbox", { name: entryLabel(e) })).toBeDisabled();
  }
  await expect(add).toBeEnabled();
  await add.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`${STORE}/cart`);

  expect(cartBodies).toEqual([
    {
      items: picks.map((e) => ({
        id: Number(e.variant_id.split("/").pop()),
        quantity: 1,
        selling_plan: Number(mix.selling_plan_id!.split("/").pop()),
        properties: { _rc_mm_group: "mm-coffee-trio" },
      })),
    },
  ]);
  expect(errors).toEqual([]);
});
