// The API reference in a real browser: every error's doc_url lands on its own section, and the
// reference lists the surfaces and the webhook verifier a developer copies.
import { expect, test } from "@playwright/test";

test("an error's doc_url opens the section that explains it", async ({ page, request }) => {
  const res = await request.get("/api/admin/v1/subscriptions");
  expect(res.status()).toBe(401);
  const { error } = await res.json();
  expect(error.code).toBe("missing_credential");

  await page.goto(error.doc_url);
  const section = page.locator("section#missing_credential");
  await expect(section).toBeVisible();
  await expect(section).toContainText("401");
  await expect(page).toHaveURL(/\/docs\/api\/errors#missing_credential$/);
});

test("the reference documents every surface, every error code and the signature verifier", async ({ page }) => {
  await page.goto("/docs");
  for (const heading of ["Admin API", "Storefront API", "Customer API"]) {
    await expect(page.getByRole("heading", { name: new RegExp(heading) }).first()).toBeVisible();
  }
  await expect(page.locator("#webhooks")).toBeVisible();
  await expect(page.locator("pre").filter({ hasText: "timingSafeEqual" }).first()).toBeVisible();

  await page.goto("/docs/api/errors");
  const codes = await page.locator("section[id]").evaluateAll((els) => els.map((e) => e.id));
  expect(codes).toEqual(expect.arrayContaining(["invalid_request", "rate_limited", "plan_upgrade_required", "idempotency_conflict", "internal_error"]));
});

test("the OpenAPI document is served as JSON", async ({ request }) => {
  const res = await request.get("/docs/openapi.json");
  expect(res.ok()).toBe(true);
  const doc = await res.json();
  expect(doc.openapi).toMatch(/^3\.1/);
  expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
});
