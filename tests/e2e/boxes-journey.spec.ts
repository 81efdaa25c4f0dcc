// Build-a-box and Mix & Match from end to end at 375 px (docs/decisions/105, 106, 107): the merchant
// creates a build-a-box bundle and publishes next month's menu after its impact panel; the Admin API
// shows it; one subscriber picks a box in the example portal (Customer API) before the cutoff; the
// cutoff job, run on a controllable clock (`boxes cutoff --at`), writes the pick onto that contract
// and the fallback box onto the contract of a subscriber who never picked; the same pick is then
// 409 selection_closed; a second run changes nothing. The merchant edits a Mix & Match selection, the
// theme block (rendered from the metafield the simulator holds) offers the new entries, and a shopper
// buys a selection through the simulated checkout: every contract line carries one _rc_mm_group.
// No console errors, no serious axe violations, no sideways scroll.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { productPage, renderBlock, THEME_ROOT } from "../support/theme";
import {
  APP,
  SIM,
  adminApi,
  cli,
  expectAccessible,
  expectNoHorizontalOverflow,
  fillBoxBundle,
  navigate,
  pickSnacks,
  seed,
  simCall,
  snackBoxShop,
  watchConsole,
} from "./admin-support";

const PORTAL_ORIGIN = APP.replace("127.0.0.1", "localhost");
type Attribute = { key: string; value: string };
type SimContract = { id: string; revisionId: number; lines: { variantId: string; customAttributes: Attribute[] }[] };
const attr = (c: SimContract, key: string) => c.lines[0].customAttributes.find((a) => a.key === key)?.value;

test("a box merchant's month and a Mix & Match purchase, at 375 px", async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 375, height: 900 });
  const console = watchConsole(page);
  const { shop, variants, group: boxGroup } = await snackBoxShop(page, request, "e2e-boxes");
  const shopPath = `/shops/${encodeURIComponent(shop)}`;
  const contractOf = (id: string) => simCall<SimContract>(request, "GET", `${shopPath}/contracts/${encodeURIComponent(id)}`);
  const [crisps, nuts, figs] = variants;
  const app = page.frameLocator("iframe#app-iframe");
  const key = JSON.parse(cli("keys", "mint", "--shop", shop, "--name", "boxes", "--scopes", "read:bundles,read:mixmatch")).key as string;

  // 1. The merchant creates a build-a-box bundle: boxes of four, picking closes 3 days before the charge.
  await navigate(page, "Bundles");
  await app.getByRole("link", { name: "Create bundle" }).first().click();
  await fillBoxBundle(app, { size: "Regular", price: "30.00", items: 4, cutoffDays: 3 });
  await app.getByRole("button", { name: "Save bundle" }).click();
  await expect(app.locator("h1")).toHaveText("Snack box");
  const build = app.getByRole("link", { name: /^Build the \d{4}-\d{2} menu$/ }).first();
  const period = ((await build.textContent()) ?? "").match(/\d{4}-\d{2}/)![0];

  // Two subscribers charged on the 15th of that month: picking is open now (the cutoff is the 12th).
  const charge = `${period}-15T12:00:00.000Z`;
  const seeded = JSON.parse(
    seed("box-subscribers", shop, boxGroup.sellingPlans[0].id, crisps, charge, PORTAL_ORIGIN)
      .split("\n")
      .find((l) => l.startsWith('{"picker"'))!,
  ) as { picker: { customerId: string; contractId: string }; sleeper: { contractId: string }; publishableKey: string; numericId: number };

  // 2. Next month's menu: the three snacks. At one of each a box the menu cannot fill a box of four:
  // refused on the menu, nothing saved. Up to two Nuts and two Figs, and a fallback box of one Crisps,
  // two Nuts and one Figs, then saves; the impact panel counts both subscribers before publishing.
  await build.click();
  await expect(app.locator("h1")).toContainText(`Snack box: ${period} menu`);
  await pickSnacks(page, app);
  await app.getByRole("button", { name: "Save draft" }).click();
  await expect(app.getByText("The Regular box holds 4 items, but this menu offers at most 3", { exact: false })).toBeVisible();
  await expectAccessible(page);
  const bundles = await adminApi(request, key, "/bundles");
  expect((await adminApi(request, key, `/bundles/${bundles.body.data[0].id}/boxes`)).body.data).toEqual([]);
  await app.getByLabel("Limit per box for Snacks – Nuts").fill("2");
  await app.getByLabel("Limit per box for Snacks – Figs").fill("2");
  await app.getByLabel("In the fallback box: Snacks – Crisps").fill("1");
  await app.getByLabel("In the fallback box: Snacks – Nuts").fill("2");
  await app.getByLabel("In the fallback box: Snacks – Figs").fill("1");
  await app.getByRole("button", { name: "Save draft" }).click();
  await expect(app.getByText("Draft", { exact: true })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await app.getByRole("button", { name: "Review and publish" }).click();
  const dialog = app.getByRole("dialog");
  await expect(dialog.getByText(`2 subscribers ship in ${period}; 0 already picked.`)).toBeVisible();
  await expect(dialog.getByText("2 subscribers will get the fallback box unless they pick before the cutoff.")).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Publish menu" }).click();
  await expect(app.getByText("Menu published", { exact: true }).first()).toBeVisible();

  expect((await adminApi(request, key, "/bundles")).body.data[0]).toMatchObject({
    title: "Snack box",
    kind: "build_a_box",
    selection_cutoff_days: 3,
    box_size_min: 4,
    box_size_max: 4,
  });
  const boxes = await adminApi(request, key, `/bundles/${bundles.body.data[0].id}/boxes`);
  expect(boxes.body.data[0]).toMatchObject({ period, published: true });
  expect(boxes.body.data[0].items.map((i: { variant_id: string }) => i.variant_id)).toEqual([crisps, nuts, figs]);

  // 3. The first subscriber picks one Crisps, one Nuts and two Figs in the example portal, before the cutoff.
  const portal = await page.context().newPage();
  await portal.setViewportSize({ width: 375, height: 900 });
  const portalConsole = watchConsole(portal);
  const account = `${SIM}/shopify.com/${seeded.numericId}/account/customer/api/2026-10/graphql`;
  await portal.goto(
    `${PORTAL_ORIGIN}/examples/portal/?api=${encodeURIComponent(APP)}&key=${encodeURIComponent(seeded.publishableKey)}&account=${encodeURIComponent(account)}`,
  );
  const token = await simCall<{ accessToken: string }>(request, "POST", `${shopPath}/customer-access-tokens`, { customerId: seeded.picker.customerId });
  await portal.getByLabel("Customer access token").fill(token.accessToken);
  await portal.getByRole("button", { name: "Sign in" }).click();
  await expect(portal.getByRole("status")).toHaveText("Signed in.");
  const card = portal.locator(`li.card[data-contract-id="${seeded.picker.contractId}"]`);
  await card.getByText("Build this period's box").click();
  await expect(card.getByText(`Pick 4–4 items for ${period}.`, { exact: false })).toBeVisible();
  await card.getByLabel("Snacks – Crisps").fill("1");
  await card.getByLabel("Snacks – Nuts").fill("1");
  await card.getByLabel("Snacks – Figs").fill("2");
  await card.getByRole("button", { name: "Save my box" }).click();
  await expect(portal.getByRole("status")).toHaveText("Box saved: 1 × Crisps, 1 × Nuts, 2 × Figs.");
  await expectAccessible(portal);
  expect(await portal.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // 4. The cutoff job, on a clock two days before the charge: the pick for the first subscriber,
  // the fallback box for the one who never picked, written onto their contracts at Shopify.
  const afterCutoff = `${period}-13T12:00:00.000Z`;
  expect(JSON.parse(cli("boxes", "cutoff", "--shop", shop, "--at", afterCutoff))).toMatchObject({ applied: 2, picks: 1, fallbacks: 1, refused: 0 });
  const picked = await contractOf(seeded.picker.contractId);
  const fallback = await contractOf(seeded.sleeper.contractId);
  expect([attr(picked, "_box_period"), attr(picked, "_box_items"), attr(picked, "_box_source")]).toEqual([period, `${crisps}:1,${nuts}:1,${figs}:2`, "pick"]);
  expect([attr(fallback, "_box_period"), attr(fallback, "_box_items"), attr(fallback, "_box_source")]).toEqual([
    period,
    `${crisps}:1,${nuts}:2,${figs}:1`,
    "fallback",
  ]);

  // 5. After the cutoff the same pick is refused: 409 selection_closed, shown to the subscriber.
  const refused = portal.waitForResponse((r) => r.url().endsWith("/box") && r.request().method() === "POST");
  await card.getByRole("button", { name: "Save my box" }).click();
  const answer = await refused;
  expect(answer.status()).toBe(409);
  expect((await answer.json()).error.code).toBe("selection_closed");
  await expect(portal.locator("#error")).toContainText(`Picking for ${period} closed`);
  await portal.reload();
  await portal.getByLabel("Customer access token").fill(token.accessToken);
  await portal.getByRole("button", { name: "Sign in" }).click();
  await card.getByText("Build this period's box").click();
  await expect(card.getByText("Picking is closed (past cutoff).")).toBeVisible();
  // A refused write answers 409, which Chromium reports as a failed resource load; nothing else may.
  expect(portalConsole.errors.filter((e) => !e.includes("409"))).toEqual([]);

  // 6. Running the job again changes nothing: no application, no new contract revision.
  expect(JSON.parse(cli("boxes", "cutoff", "--shop", shop, "--at", afterCutoff))).toMatchObject({ applied: 0, refused: 0 });
  expect((await contractOf(seeded.picker.contractId)).revisionId).toBe(picked.revisionId);
  expect((await contractOf(seeded.sleeper.contractId)).revisionId).toBe(fallback.revisionId);
  await portal.close();

  // 7. Mix & Match: the merchant makes a tea selection, then edits it to add a herbal category.
  const tea = await simCall<{ id: string; variants: { id: string }[] }>(request, "POST", `${shopPath}/products`, {
    title: "Tea",
    variants: [
      { title: "Green", price: "4.00" },
      { title: "Black", price: "3.50" },
    ],
  });
  const herbal = await simCall<{ id: string; variants: { id: string }[] }>(request, "POST", `${shopPath}/products`, {
    title: "Herbal",
    variants: [
      { title: "Mint", price: "4.50" },
      { title: "Chamomile", price: "5.00" },
    ],
  });
  const teaGroup = await simCall<{ id: string; sellingPlans: { id: string }[] }>(request, "POST", `${shopPath}/selling-plan-groups`, {
    name: "Tea club",
    plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
    variantIds: [...tea.variants, ...herbal.variants].map((v) => v.id),
  });
  seed("box-plan", shop, teaGroup.id, teaGroup.sellingPlans[0].id, "Tea club");
  await navigate(page, "Mix & Match");
  await app.getByRole("link", { name: "Create selection" }).first().click();
  await app.getByLabel("Title").fill("Pick 2 teas");
  await app.getByLabel("Plan").selectOption({ label: "Tea club" });
  await app.getByLabel("Fewest items").fill("2");
  await app.getByLabel("Most items").fill("2");
  await app.getByLabel("Category 1 name").fill("Teas");
  await app.getByRole("button", { name: "Select products for category 1" }).click();
  const picker = page.getByRole("dialog", { name: "Select products" });
  await picker.getByRole("checkbox", { name: "Tea", exact: true }).check();
  await picker.getByRole("button", { name: "Select" }).click();
  await app.getByRole("button", { name: "Save selection" }).click();
  await app.getByRole("link", { name: "Pick 2 teas" }).click();
  await expect(app.locator("h1")).toHaveText("Pick 2 teas");
  await app.getByRole("button", { name: "Add category" }).click();
  await app.getByLabel("Category 2 name").fill("Herbals");
  await app.getByRole("button", { name: "Select products for category 2" }).click();
  await picker.getByRole("checkbox", { name: "Herbal", exact: true }).check();
  await picker.getByRole("button", { name: "Select" }).click();
  await expect(app.getByText("Herbal – Mint")).toBeVisible();
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);
  await app.getByRole("button", { name: "Save selection" }).click();
  await expect(app.locator("h1")).toHaveText("Mix & Match");
  const mixes = await adminApi(request, key, "/mix-match");
  const detail = await adminApi(request, key, `/mix-match/${mixes.body.data[0].id}`);
  expect(detail.body.categories.map((c: { title: string }) => c.title)).toEqual(["Teas", "Herbals"]);

  // 8. The storefront block, rendered from the metafield as the simulator holds it, offers the new
  // entries; the shopper buys one tea and one herbal through the simulated cart and checkout.
  const metafields = await simCall<{ ownerId: string; key: string; value: string }[]>(request, "GET", `${shopPath}/metafields`);
  const mm = metafields.find((m) => m.ownerId === tea.id && m.key === "mix_match")!;
  const group = (JSON.parse(mm.value) as { cart_group_id: string }).cart_group_id;
  const base = `/storefront/${encodeURIComponent(shop)}`;
  const block = await renderBlock("mix-match", {
    metafields: { mix_match: mm.value },
    routes: { cart_add_url: `${base}/cart/add`, cart_url: `${base}/cart`, root_url: `${base}/` },
  });
  const store = await page.context().newPage();
  await store.setViewportSize({ width: 375, height: 900 });
  const storeConsole = watchConsole(store);
  // The theme's product page is the one thing the simulator does not serve: the rest (cart, checkout) is its own.
  await store.route(`${SIM}${base}/products/tea`, (route) => route.fulfill({ contentType: "text/html", body: productPage(block) }));
  await store.route(`${SIM}/extensions/subscriptions-theme/assets/mix-match.js`, (route) =>
    route.fulfill({ contentType: "text/javascript", body: readFileSync(`${THEME_ROOT}/assets/mix-match.js`, "utf8") }),
  );
  await store.goto(`${SIM}${base}/products/tea`);
  await expect(store.getByRole("checkbox", { name: /^Herbal \(Mint\)/ })).toBeVisible();
  await store.getByRole("checkbox", { name: /^Tea \(Green\)/ }).check();
  await store.getByRole("checkbox", { name: /^Herbal \(Mint\)/ }).check();
  await expectAccessible(store);
  await store.getByRole("button", { name: "Add selection to cart" }).click();
  await expect(store.getByRole("heading", { name: "Cart" })).toBeVisible();
  await store.getByLabel("E-mail").fill("mia@example.com");
  await store.getByLabel("First name").fill("Mia");
  await store.getByLabel("Last name").fill("Tanaka");
  const paid = store.waitForResponse((r) => r.url().endsWith(`${base}/checkout`));
  await store.getByRole("button", { name: "Pay now" }).click();
  await expect(store.getByRole("status")).toContainText("Thank you! Order");
  const { contract_ids } = (await (await paid).json()) as { contract_ids: string[] };
  expect(contract_ids).toHaveLength(1);
  const bought = await contractOf(contract_ids[0]);
  expect(bought.lines.map((l) => l.variantId)).toEqual([tea.variants[0].id, herbal.variants[0].id]);
  const groups = bought.lines.map((l) => l.customAttributes.filter((a) => a.key === "_rc_mm_group").map((a) => a.value));
  expect(groups).toEqual([[group], [group]]);
  expect(await store.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  storeConsole.expectNone();
  await store.close();
  console.expectNone();
});
