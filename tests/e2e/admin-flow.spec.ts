// Shopify Flow page (docs/decisions/128-flow-triggers.md): the merchant turns Flow triggers on, a
// contract paused in Shopify admin becomes the subscription.paused event, and its trigger call
// reaches Flow (the simulator records it) and is listed as sent; at 375 px, without console errors
// or serious axe violations.
import { expect, test } from "@playwright/test";
import { cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, simCall, watchConsole } from "./admin-support";

test("turning Flow triggers on: a paused contract's event reaches Flow once and is listed as sent, at 375 px", async ({ page, request }) => {
  test.setTimeout(180_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-flow");
  const app = await openApp(page, shop);
  const product = await simCall(request, "POST", `/shops/${shop}/products`, { title: "Green tea", variants: [{ title: "100 g", price: "12.00" }] });
  const contract = await simCall(request, "POST", `/shops/${shop}/contracts`, { lines: [{ variantId: product.variantIds[0], quantity: 1 }], webhooks: false });
  cli("mirror", "reconcile", "--shop", shop);

  await navigate(page, "Shopify Flow");
  await expect(app.locator("h1")).toHaveText("Shopify Flow");
  await expect(app.getByText("Off", { exact: true })).toBeVisible();
  await expect(app.getByRole("list", { name: "Flow triggers" }).getByRole("listitem")).toHaveCount(15);
  await expect(app.getByText("No trigger calls yet.", { exact: false })).toBeVisible();
  await expectAccessible(page);

  await app.getByRole("button", { name: "Turn on Flow triggers" }).click();
  await expect(page.getByRole("status").getByText("Flow triggers turned on")).toBeVisible();
  await expect(app.getByText("On", { exact: true })).toBeVisible();

  // Paused in Shopify admin: the platform's webhook becomes subscription.paused, and its trigger call.
  await simCall(request, "PATCH", `/shops/${shop}/contracts/${String(contract.id).split("/").pop()}`, { status: "PAUSED" });
  await expect
    .poll(
      async () =>
        (await simCall<{ handle: string; accepted: boolean }[]>(request, "GET", `/shops/${shop}/flow-trigger-calls`)).map((c) => [c.handle, c.accepted]),
      {
        timeout: 60_000,
      },
    )
    .toEqual([["subscription-paused", true]]);
  const [call] = await simCall<{ payload: Record<string, unknown> }[]>(request, "GET", `/shops/${shop}/flow-trigger-calls`);
  expect(call.payload).toMatchObject({ "Contract ID": contract.id, "New status": "PAUSED" });

  await page.setViewportSize({ width: 375, height: 812 });
  await openApp(page, shop, "/app/flow");
  const table = app.getByRole("table");
  await expect(table.getByText("subscription.paused")).toBeVisible();
  await expect(table.getByText("Sent")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  console.expectNone();
});
