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
  await expect(charts).toHaveCount(5);
  for (let i = 0; i < 5; i++) await expect(charts.nth(i).locator("svg")).toBeVisible();

  // Money in the shop's currency format, as the merchant reads it.
  const mrr = (await adminApi(request, key, "/analytics/mrr")).body;
  const usd = (amount: string) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(amount));
  await expect(app.getByText(usd(mrr.mrr[0].amount), { exact: true })).toBeVisible();

  // The MRR trend: twelve months, the last one the API's MRR now.
  const trends = (await adminApi(request, key, "/analytics/trends")).body;
  expect(trends.months).toHaveLength(12);
  const trend = charts.first();
  const label = (await trend.getAttribute("aria-label")) ?? "";
  expect(label).toMatch(/^MRR at each month's end/);
  expect(label.split(": ").slice(1).join(": ").split("; ")).toHaveLength(12);
  expect(label).toContain(usd(trends.months[11].mrr[0].amount));
  expect(trends.months[11].mrr).toEqual(mrr.mrr);
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
  // Every cohort's legend entry is on screen: the legend wraps instead of running off the chart.
  const legend = app.getByRole("figure", { name: /^Retention by cohort/ }).locator("xpath=following-sibling::ul[1]/li");
  expect(await legend.count()).toBeGreaterThan(1);
  for (const box of await legend.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(375);
  }
  await expectNoHorizontalOverflow(page);
  console.expectNone();

  // The server renders the charts too: the document itself carries the SVG.
  const { token } = await (await request.post(`${SIM}/_sim/shops/${shop}/session-token`, { data: {} })).json();
  const doc = await request.get(
    `${APP}/app/analytics?${new URLSearchParams({ embedded: "1", shop, host: Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64url"), id_token: token })}`,
  );
  const html = await doc.text();
  expect(doc.status(), html.slice(0, 500)).toBe(200);
  expect(html.match(/<svg/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
});
