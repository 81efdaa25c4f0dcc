// The embedded app inside (simulated) Shopify admin, in Chromium: admin frames the app with a
// session token, the app exchanges it for an offline token at the platform (token exchange),
// records the installation, and renders the shop's page through authenticated loaders.
import { expect, test } from "@playwright/test";
import { E2E_SIMULATOR_URL as SIM } from "../../playwright.config";

test("the app opens inside Shopify admin, installs through token exchange and shows its shop", async ({ page, request }) => {
  const shop = `e2e-${Date.now()}.myshopify.com`;
  expect((await request.post(`${SIM}/_sim/shops`, { data: { shop } })).ok()).toBe(true);

  await page.goto(`${SIM}/admin/${shop}`);
  const app = page.frameLocator("iframe#app-iframe");
  await expect(app.getByRole("heading", { name: shop })).toBeVisible();
  await expect(app.getByText("Free plan", { exact: true })).toBeVisible();
  await expect(app.getByText("0 subscriptions · Developer API off")).toBeVisible();

  const ops = await (await request.get(`${SIM}/_sim/shops/${shop}/operations`)).json();
  expect(ops.some((o: { api: string; outcome: string }) => o.api === "oauth" && o.outcome === "ok")).toBe(true);
});

test("App Bridge's stand-in signs the app's own requests with a fresh session token", async ({ page, request }) => {
  const shop = `e2e-bridge-${Date.now()}.myshopify.com`;
  await request.post(`${SIM}/_sim/shops`, { data: { shop } });
  await page.goto(`${SIM}/admin/${shop}`);
  await page.frameLocator("iframe#app-iframe").getByRole("heading", { name: shop }).waitFor();
  const app = page.frames().find((f) => f.url().includes("/app?"))!;

  // A Remix data request for the page's loader, as client navigation makes it: fetch() carries
  // the stand-in's Authorization header and is answered; the same request without it is not.
  const loaderUrl = "/app?_data=routes%2Fapp._index";
  expect(await app.evaluate(async (url) => (await fetch(url)).status, loaderUrl)).toBe(200);
  const unsigned = await app.evaluate(
    (url) =>
      new Promise<number>((resolve) => {
        const xhr = new XMLHttpRequest(); // not patched by the stand-in: no session token
        xhr.open("GET", url);
        xhr.onloadend = () => resolve(xhr.status);
        xhr.send();
      }),
    loaderUrl,
  );
  expect(unsigned).not.toBe(200);
  expect(await app.evaluate(async () => typeof (await (window as unknown as { shopify: { idToken(): Promise<string> } }).shopify.idToken()))).toBe("string");
});
