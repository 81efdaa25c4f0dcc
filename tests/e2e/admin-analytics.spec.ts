// Analytics page: the four dashboards with their charts, computed by the same functions as the
// Admin API's /analytics/* (the figures agree), rendered on the server as SVG and in the browser.
import { expect, test } from "@playwright/test";
import { APP, SIM, adminApi, cli, expectAccessible, expectNoHorizontalOverflow, navigate, newShop, openApp, seed, watchConsole } from "./admin-support";

test("the analytics dashboards show MRR, churn, cohorts and recovery with charts, the same figures as the API", async ({ page, request }) => {
  test.setTimeout(90_000);
  const console = watchConsole(page);
  const shop = await newShop(request, "e2e-analytics");
  const app = await openApp(page, shop);
  seed("analytics", shop);
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  const key = JSON.parse(cli("keys", "mint", "--shop", shop, "--name", "a", "--scopes", "read:analytics")).key as string;

  await navigate(page, "Analytics");
  await expect(app.locator("h1")).toHaveText("Analytics");
  const charts = app.getByRole("figure");
  await expect(charts).toHaveCount(4);
  for (let i = 0; i < 4; i++) await expect(charts.nth(i).locator("svg")).toBeVisible();

  const mrr = (await adminApi(request, key, "/analytics/mrr")).body;
  await expect(app.getByText(`${mrr.mrr[0].amount} USD`, { exact: true })).toBeVisible();
  const churn = (await adminApi(request, key, "/analytics/churn?range=90d")).body;
  await app.getByLabel("Period (churn and recovery)").selectOption("90d");
  await expect(app.getByText(`${churn.churned} of ${churn.subscribers_at_start}`, { exact: true })).toBeVisible();
  const recovery = (await adminApi(request, key, "/analytics/recovery?range=90d")).body;
  await expect(app.getByText(`${recovery.reactivated} of ${recovery.sends}`, { exact: true })).toBeVisible();
  const cohorts = (await adminApi(request, key, "/analytics/cohorts")).body;
  expect(cohorts.cohorts.length).toBeGreaterThan(1);
  await expect(app.getByRole("figure", { name: new RegExp(`Retention by cohort: ${cohorts.cohorts[0].cohort}`) })).toBeVisible();
  await expectAccessible(page);

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(charts.first().locator("svg")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  console.expectNone();

  // The server renders the charts too: the document itself carries the SVG.
  const { token } = await (await request.post(`${SIM}/_sim/shops/${shop}/session-token`, { data: {} })).json();
  const doc = await request.get(
    `${APP}/app/analytics?${new URLSearchParams({ embedded: "1", shop, host: Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64url"), id_token: token })}`,
  );
  const html = await doc.text();
  expect(doc.status(), html.slice(0, 500)).toBe(200);
  expect(html.match(/<svg/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
});
