// The API reference in a real browser: every error's doc_url lands on its own section, and the
// reference (the OpenAPI document rendered by the bundled Redoc) lists the surfaces, each
// endpoint's parameters, response shape and example request, and the webhook verifier a
// developer copies, on a desktop and at 375 px, loading nothing from outside the app.
import { expect, test, type Page } from "@playwright/test";

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

  await page.goto("/docs/api/errors");
  const codes = await page.locator("section[id]").evaluateAll((els) => els.map((e) => e.id));
  expect(codes).toEqual(expect.arrayContaining(["invalid_request", "rate_limited", "plan_upgrade_required", "idempotency_conflict", "internal_error"]));
});

/** Opens /docs and records every request that leaves the app's origin, and console errors. */
async function openReference(page: Page, hash = "") {
  const outside: string[] = [];
  const errors: string[] = [];
  const origin = new URL(test.info().project.use.baseURL ?? "").origin;
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) outside.push(url);
  });
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto(`/docs${hash}`);
  return { outside, errors };
}

test("the reference documents every surface, the conventions and the signature verifier, offline", async ({ page }) => {
  const seen = await openReference(page);
  // Redoc names each section heading after its anchor too ("section/Conventions Conventions").
  for (const heading of ["Admin API", "Storefront API", "Customer API", "Conventions", "Verifying webhook signatures"]) {
    await expect(page.getByRole("heading", { name: new RegExp(`(^| )${heading}$`) }).first()).toBeVisible();
  }
  const verifier = page.locator('[id="section/Verifying-webhook-signatures"]');
  await expect(verifier.locator("pre").filter({ hasText: "timingSafeEqual" })).toBeVisible();
  await expect(page.getByRole("link", { name: "error codes" }).first()).toHaveAttribute("href", "/docs/api/errors");
  expect(seen.outside).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test("at 375 px an endpoint shows its parameters, response shape and a curl example without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const seen = await openReference(page, "#tag/Admin-API:-Subscription-writes/operation/admin_post_subscriptions_contract_gid_reschedule");
  const op = page.locator('[id="tag/Admin-API:-Subscription-writes/operation/admin_post_subscriptions_contract_gid_reschedule"]');
  await expect(op.getByRole("heading", { name: /Set the next charge date/ })).toBeVisible();
  await expect(op).toContainText("contract_gid");
  await expect(op).toContainText("Idempotency-Key");
  await expect(op).toContainText("next_billing_at");
  // The response shape: the receipt's fields, from the route's response schema.
  await expect(op).toContainText("previous_status");
  await op.getByRole("tab", { name: "curl" }).click();
  await expect(op.locator("pre").filter({ hasText: "curl -X POST" })).toContainText("Idempotency-Key");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(seen.outside).toEqual([]);
});

test("the OpenAPI document is served as JSON, with a response schema and an example request for every operation", async ({ request }) => {
  const res = await request.get("/docs/openapi.json");
  expect(res.ok()).toBe(true);
  const doc = await res.json();
  expect(doc.openapi).toMatch(/^3\.1/);
  expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  for (const [path, ops] of Object.entries(
    doc.paths as Record<
      string,
      Record<
        string,
        { responses: Record<string, { content?: { "application/json": { schema: Record<string, unknown> } } }>; "x-codeSamples": Array<{ source: string }> }
      >
    >,
  )) {
    for (const [method, op] of Object.entries(ops)) {
      const success = Object.entries(op.responses).find(([status]) => /^2\d\d$/.test(status));
      const schema = success?.[1].content?.["application/json"].schema ?? {};
      expect(schema.type ?? schema.anyOf, `${method} ${path} response schema`).toBeTruthy();
      expect(op["x-codeSamples"][0].source, `${method} ${path} example`).toMatch(/^curl /);
    }
  }
});
