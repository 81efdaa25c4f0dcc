// The Storefront API over real HTTP (the built app, the simulator through the production
// adapter): publishable vs secret key, CORS, live selling plan resolution vs a platform outage,
// cache headers, and the price preview where the live variant price wins.

import { startStack, type Stack } from "../../support/stack";
import { ALLOWED_ORIGIN, STALE_PLAN_GID, seedStorefrontShop, type StorefrontShop } from "../../support/storefront-factories";
import { createBundle, createKey, createPlanGroup } from "../../support/fixtures";

let stack: Stack;
let s: StorefrontShop;
beforeAll(async () => {
  stack = await startStack({ workers: false });
  s = await seedStorefrontShop(stack);
}, 60_000);
afterAll(async () => {
  await stack.close();
});

const BASE = "/api/storefront/v1";
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function get(path: string, opts: { key?: string; origin?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? s.publishableKey : opts.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  if (opts.origin) headers.Origin = opts.origin;
  const res = await fetch(`${stack.appUrl}${BASE}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

const enc = encodeURIComponent;
const failPlatform = (operation: string, times: number) =>
  Promise.all(Array.from({ length: times }, () => stack.control.call("POST", `${stack.control.shop(s.domain)}/failures`, { operation, status: 503 })));
const clearFailures = () => stack.control.call("DELETE", `${stack.control.shop(s.domain)}/failures`);

describe("credentials", () => {
  it("answers a publishable key and refuses a secret key (it must never reach a browser)", async () => {
    expect((await get(`/bundles/${s.bundleId}`)).status).toBe(200);
    const secret = await get(`/bundles/${s.bundleId}`, { key: s.secretKey });
    expect(secret.status).toBe(401);
    expect(secret.body.error.code).toBe("invalid_credential");
    const none = await get(`/bundles/${s.bundleId}`, { key: "" });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("missing_credential");
  });

  it("checks the key's scopes and the shop: another shop's bundle is 404", async () => {
    const { key } = await createKey({ shopId: s.shopId, name: "mm only", scopes: ["read:mixmatch"], kind: "PUBLISHABLE" });
    const scoped = await get(`/bundles/${s.bundleId}`, { key });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.code).toBe("insufficient_scope");
    expect((await get(`/mix-match/${s.mixId}`, { key })).status).toBe(200);

    const other = await stack.installShop();
    const { key: otherKey } = await createKey({ shopId: other.shopId, name: "other", scopes: ["read:bundles"], kind: "PUBLISHABLE" });
    const foreign = await get(`/bundles/${s.bundleId}`, { key: otherKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
  });
});

describe("CORS", () => {
  it("lets an allowlisted origin read the answer", async () => {
    const res = await get(`/bundles/${s.bundleId}`, { origin: ALLOWED_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Service-Request-Id");
    const ownDomain = await get(`/bundles/${s.bundleId}`, { origin: `https://${s.domain}` });
    expect(ownDomain.headers.get("access-control-allow-origin")).toBe(`https://${s.domain}`);
  });

  it("refuses a foreign origin before any handler runs, without Access-Control-Allow-Origin", async () => {
    const res = await get(`/bundles/${s.bundleId}`, { origin: "https://evil.example" });
    // invalid_credential, not forbidden: forbidden is the Customer API's other-customer answer (decision 122).
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_credential");
    expect(res.body.error.message).toContain("https://evil.example");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a preflight with the surface's methods and headers, and no body", async () => {
    const res = await fetch(`${stack.appUrl}${BASE}/mix-match/${s.mixId}`, {
      method: "OPTIONS",
      headers: { Origin: ALLOWED_ORIGIN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(await res.text()).toBe("");
  });
});

describe("cache headers", () => {
  it("a successful read is publicly cacheable for 30 s, varying on Origin and Authorization", async () => {
    const res = await get(`/mix-match/${s.mixId}`, { origin: ALLOWED_ORIGIN });
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    expect(res.headers.get("vary")).toBe("Origin, Authorization");
  });

  it("errors are never cached", async () => {
    for (const res of [await get("/bundles/nope"), await get(`/bundles/${s.bundleId}`, { key: s.secretKey }), await get("/nowhere")]) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("vary")).toBe("Origin, Authorization");
    }
  });
});

describe("live selling plan resolution", () => {
  it("GET /bundles/{id}: selection_cutoff_days and the child plan live from the platform, not the mirror's", async () => {
    const res = await get(`/bundles/${s.bundleId}`);
    expect(res.body).toEqual({
      id: s.bundleId,
      title: "Roaster's box",
      kind: "curated",
      selling_plan_group_id: s.group.gid,
      selection_cutoff_days: 4,
      box_size_min: null,
      box_size_max: null,
      selling_plan_id: s.group.planGid,
      selling_plans: [{ selling_plan_id: s.group.planGid, name: "Monthly, 10% off" }],
    });
    expect(res.body.selling_plan_id).not.toBe(STALE_PLAN_GID);
  });

  it("GET /mix-match/{id}: the catalogue, cart_group_id and the live child plan", async () => {
    const res = await get(`/mix-match/${s.mixId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: s.mixId,
      cart_group_id: "mm-pick-three",
      selling_plan_id: s.group.planGid,
      min_items: 2,
      max_items: 3,
      price_cents: 4000,
    });
    expect(res.body.categories.map((c: Json) => [c.title, c.entries.map((e: Json) => e.variant_id)])).toEqual([
      ["Coffee", [s.variants.light, s.variants.dark]],
      ["Tea", [s.variants.green]],
    ]);
  });

  it("a group gone from the platform gives selling_plan_id null, never the mirror's id", async () => {
    const gone = await createPlanGroup(s.shopId, {
      groupGid: "gid://shopify/SellingPlanGroup/888888888",
      name: "Deleted",
      cadenceLabel: "x",
      interval: "MONTH",
      intervalCount: 1,
      billingLabel: "x",
      discountLabel: "x",
      sellingPlans: [{ sellingPlanGid: STALE_PLAN_GID, name: "old" }],
    });
    const bundle = await createBundle({ shopId: s.shopId, groupId: gone.id, title: "Retired box", kind: "CURATED" });
    const res = await get(`/bundles/${bundle.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ selling_plan_id: null, selling_plans: [] });
  });

  it("a platform that does not answer is 503 platform_unavailable with Retry-After, never a stale id", async () => {
    await failPlatform("sellingPlanGroup", 5); // the adapter retries a query five times
    try {
      const res = await get(`/bundles/${s.bundleId}`, { origin: ALLOWED_ORIGIN });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("platform_unavailable");
      expect(res.body.error.doc_url).toMatch(/\/docs\/api\/errors#platform_unavailable$/);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
      expect(JSON.stringify(res.body)).not.toContain("SellingPlan/");
    } finally {
      await clearFailures();
    }
    expect((await get(`/bundles/${s.bundleId}`)).body.selling_plan_id).toBe(s.group.planGid);
  }, 30_000);
});

describe("GET /products/{product_id}/plans", () => {
  it("lists this app's active plans the product is sold on, each with its live child plan", async () => {
    const res = await get(`/products/${enc(s.products.coffee)}/plans`);
    expect(res.status).toBe(200);
    expect(res.body.product_id).toBe(s.products.coffee);
    expect(res.body.next_cursor).toBeNull();
    // Another app's group on the same product stays invisible.
    expect(res.body.data.map((p: Json) => p.selling_plan_group_id)).toEqual([s.group.gid]);
    expect(res.body.data[0]).toMatchObject({
      name: "Monthly box",
      selling_plan_id: s.group.planGid,
      selling_plans: [{ selling_plan_id: s.group.planGid, name: "Monthly, 10% off" }],
      cadence: { label: "Every month", interval: "MONTH", interval_count: 1 },
      schedule: { mode: "rolling" },
    });
  });

  it("takes the number alone (Liquid's product.id); a product on no plan has an empty list; an unknown one is 404", async () => {
    const numeric = await get(`/products/${s.products.tea.split("/").pop()}/plans`);
    expect(numeric.body.data.map((p: Json) => p.selling_plan_group_id)).toEqual([s.group.gid]);
    expect((await get(`/products/${enc(s.products.other)}/plans`)).body.data).toEqual([]);
    const unknown = await get(`/products/${enc("gid://shopify/Product/777777777")}/plans`);
    expect(unknown.status).toBe(404);
    // A path parameter that is not a product id names nothing: 404 (the kernel's rule for path params).
    for (const bad of [enc("gid://shopify/ProductVariant/1"), "abc"]) {
      const res = await get(`/products/${bad}/plans`);
      expect(res.status, bad).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });
});

describe("GET /mix-match/{id}/price-preview", () => {
  it("prices the selection at the live variant prices (the snapshot is not a promise)", async () => {
    const ids = [s.variants.light, s.variants.light, s.variants.green].map(enc).join(",");
    const res = await get(`/mix-match/${s.mixId}/price-preview?variant_ids=${ids}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=30");
    expect(res.body).toMatchObject({
      mix_match_id: s.mixId,
      selling_plan_id: s.group.planGid,
      cart_group_id: "mm-pick-three",
      items: 3,
      selection_complete: true,
      purchasable: true,
      subtotal: { amount: "48.50", currency_code: "USD" },
      snapshot_price_cents: 4000,
    });
    expect(res.body.lines).toEqual([
      { variant_id: s.variants.light, quantity: 2, available: true, unit_price: { amount: "18.00", currency_code: "USD" }, snapshot_price_cents: 1700 },
      { variant_id: s.variants.green, quantity: 1, available: true, unit_price: { amount: "12.50", currency_code: "USD" }, snapshot_price_cents: 1250 },
    ]);
  });

  it("prices an incomplete selection as not complete; refuses a variant outside the catalogue and too many picks", async () => {
    const one = await get(`/mix-match/${s.mixId}/price-preview?variant_ids=${s.variants.dark.split("/").pop()}`);
    expect(one.body).toMatchObject({ items: 1, selection_complete: false, purchasable: false, subtotal: { amount: "20.00" } });

    const outside = await get(`/mix-match/${s.mixId}/price-preview?variant_ids=${enc(s.variants.mug)}`);
    expect(outside.status).toBe(400);
    expect(outside.body.error.message).toContain(s.variants.mug);
    const four = await get(`/mix-match/${s.mixId}/price-preview?variant_ids=${Array(4).fill(enc(s.variants.light)).join(",")}`);
    expect(four.status).toBe(400);
    expect(four.body.error.message).toContain("at most 3");
    for (const q of ["", "?variant_ids=", "?variant_ids=abc", "?variant_ids=1&extra=1"]) {
      const r = await get(`/mix-match/${s.mixId}/price-preview${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe("invalid_request");
    }
  });

  it("a platform outage while pricing is 503 platform_unavailable, not a snapshot price", async () => {
    await failPlatform("nodes", 5);
    try {
      const res = await get(`/mix-match/${s.mixId}/price-preview?variant_ids=${enc(s.variants.light)}`);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("platform_unavailable");
    } finally {
      await clearFailures();
    }
  }, 30_000);
});
