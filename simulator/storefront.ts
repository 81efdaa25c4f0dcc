// The simulated online store (docs/simulator.md#checkout): a product page with the purchase
// options Shopify's themes render from product.selling_plan_groups, a cart (/cart/add.js, the
// Ajax API's shape) and a one-page checkout that runs simulator/store/checkout.ts. Everything
// is under /storefront/<shop>/ so one simulator serves every shop; the cart rides on a cookie.
import { randomBytes } from "node:crypto";
import type { SimCore } from "./core";
import type { HttpAnswer } from "./http-answer";
import type { ShopState } from "./state";
import { checkout, type CartLine } from "./store/checkout";
import { renderAppBlock } from "./theme-app-blocks";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string, status = 200): HttpAnswer => ({
  status,
  body: null,
  text: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:640px;margin:0 auto;padding:16px;color:#1a1a1a}label{display:block;margin:8px 0 4px}input,select,button{font:inherit;padding:8px;max-width:100%}fieldset{border:1px solid #ccc;border-radius:8px;margin:12px 0}button{background:#1a1a1a;color:#fff;border:0;border-radius:8px;padding:10px 16px;cursor:pointer}</style></head><body>${body}</body></html>`,
  headers: { "Content-Type": "text/html; charset=utf-8" },
});
const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer => ({ status, body, headers });
const cartToken = (cookie: string | undefined) => /(?:^|;\s*)sim_cart=([A-Za-z0-9_-]+)/.exec(cookie ?? "")?.[1];

function productPage(shop: ShopState, base: string, numericId: string): HttpAnswer {
  const product = shop.products[`gid://shopify/Product/${numericId}`];
  if (!product) return page("Not found", "<h1>Product not found</h1>", 404);
  const variants = product.variantIds.map((id) => shop.variants[id]).filter(Boolean);
  const groups = Object.values(shop.sellingPlanGroups).filter((g) => g.variantIds.some((v) => product.variantIds.includes(v)));
  const options = groups
    .flatMap((g) =>
      g.sellingPlans.map(
        (p) => `<label><input type="radio" name="selling_plan" value="${esc(p.id.split("/").pop()!)}"> ${esc(g.name)}: ${esc(p.name)}</label>`,
      ),
    )
    .join("");
  return page(
    product.title,
    `<main><h1>${esc(product.title)}</h1>
<form id="product-form"><label for="variant">Variant</label><select id="variant" name="id">${variants.map((v) => `<option value="${esc(v.id.split("/").pop()!)}">${esc(v.title)} · ${esc(v.price)} ${esc(shop.currencyCode)}</option>`).join("")}</select>
<fieldset><legend>Purchase options</legend><label><input type="radio" name="selling_plan" value="" checked> One-time purchase</label>${options}</fieldset>
<label for="quantity">Quantity</label><input id="quantity" name="quantity" type="number" min="1" value="1">
<label for="note">Note for this line (optional)</label><input id="note" name="note">
<p><button type="submit">Add to cart</button></p></form>${groups.some((g) => g.app === "self") ? renderAppBlock("gift", "product-form") : ""}</main>
<script>
document.getElementById("product-form").addEventListener("submit", async function (e) {
  e.preventDefault();
  var f = new FormData(e.target);
  // Like a theme's product form: every non-empty properties[Name] field (app blocks' too) is a line property.
  var properties = f.get("note") ? { Note: f.get("note") } : {};
  f.forEach(function (v, k) { var m = /^properties\\[(.+)\\]$/.exec(k); if (m && v) properties[m[1]] = v; });
  var item = { id: f.get("id"), quantity: Number(f.get("quantity")), selling_plan: f.get("selling_plan") || null, properties: properties };
  var res = await fetch(${JSON.stringify(`${base}/cart/add.js`)}, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ items: [item] }) });
  if (res.ok) location.assign(${JSON.stringify(`${base}/cart`)});
});
</script>`,
  );
}

function cartPage(shop: ShopState, base: string, lines: CartLine[]): HttpAnswer {
  const rows = lines
    .map((l) => {
      const v = shop.variants[l.variantId];
      const plan = l.sellingPlanId
        ? Object.values(shop.sellingPlanGroups)
            .flatMap((g) => g.sellingPlans)
            .find((p) => p.id === l.sellingPlanId)
        : undefined;
      return `<li>${esc(shop.products[v?.productId ?? ""]?.title ?? "Product")} (${esc(v?.title ?? "")}) × ${l.quantity}${plan ? ` · ${esc(plan.name)}` : ""}</li>`;
    })
    .join("");
  return page(
    "Cart",
    `<main><h1>Cart</h1><ul aria-label="Cart lines">${rows}</ul>
<h2>Checkout</h2><form id="checkout"><label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email">
<label for="first">First name</label><input id="first" name="first_name" required autocomplete="given-name"><label for="last">Last name</label><input id="last" name="last_name" required autocomplete="family-name">
<p>Card: Visa ending 4242 (simulated)</p><p><button type="submit">Pay now</button></p><p id="result" role="status"></p></form></main>
<script>
document.getElementById("checkout").addEventListener("submit", async function (e) {
  e.preventDefault();
  var f = new FormData(e.target);
  var res = await fetch(${JSON.stringify(`${base}/checkout`)}, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(Object.fromEntries(f)) });
  var body = await res.json();
  document.getElementById("result").textContent = res.ok ? "Thank you! Order " + body.order.name + " is confirmed." : body.errors;
});
</script>`,
  );
}

const STOREFRONT = /^\/storefront\/([^/]+)(\/.*)$/;

/** `baseOverride` is "" when the page is served on the shop's own host (simulator/app-proxy.ts). */
export function handleStorefrontPages(
  core: SimCore,
  method: string,
  pathname: string,
  body: unknown,
  cookie: string | undefined,
  baseOverride?: string,
): HttpAnswer | null {
  const m = STOREFRONT.exec(pathname);
  if (!m) return null;
  const domain = decodeURIComponent(m[1]);
  const shop = core.shop(domain);
  if (!shop) return page("Not found", "<h1>No such shop</h1>", 404);
  const base = baseOverride ?? `/storefront/${encodeURIComponent(domain)}`;
  const path = m[2];
  shop.carts ??= {};
  const token = cartToken(cookie);
  const product = /^\/products\/(\d+)$/.exec(path);
  if (product && method === "GET") return productPage(shop, base, product[1]);
  if (path === "/cart" && method === "GET") return cartPage(shop, base, (token && shop.carts[token]) || []);
  if (path === "/cart/add.js" && method === "POST") {
    const items = ((body as { items?: unknown[] } | null)?.items ?? []) as {
      id?: unknown;
      quantity?: unknown;
      selling_plan?: unknown;
      properties?: Record<string, unknown>;
    }[];
    const lines: CartLine[] = [];
    for (const it of items) {
      const variantId = `gid://shopify/ProductVariant/${String(it.id ?? "")}`;
      if (!shop.variants[variantId]) return json(422, { status: 422, message: "Cart Error", description: "The variant does not exist" });
      const quantity = Number(it.quantity ?? 1);
      if (!Number.isInteger(quantity) || quantity < 1) return json(422, { status: 422, message: "Cart Error", description: "Quantity must be at least 1" });
      lines.push({
        variantId,
        quantity,
        sellingPlanId: it.selling_plan ? `gid://shopify/SellingPlan/${String(it.selling_plan)}` : null,
        properties: Object.fromEntries(Object.entries(it.properties ?? {}).map(([k, v]) => [k, String(v)])),
      });
    }
    const t = token && shop.carts[token] ? token : randomBytes(12).toString("base64url");
    shop.carts[t] = [...(shop.carts[t] ?? []), ...lines];
    core.changed();
    return json(
      200,
      { items: lines.map((l) => ({ variant_id: l.variantId, quantity: l.quantity, selling_plan: l.sellingPlanId, properties: l.properties })) },
      {
        "Set-Cookie": `sim_cart=${t}; Path=${base || "/"}; SameSite=Lax`,
      },
    );
  }
  if (path === "/checkout" && method === "POST") {
    const lines = (token && shop.carts[token]) || [];
    const b = (body ?? {}) as Record<string, unknown>;
    const outcome = checkout(
      core.state,
      shop,
      { email: String(b.email ?? ""), firstName: String(b.first_name ?? ""), lastName: String(b.last_name ?? ""), lines },
      core.now(),
    );
    if (!outcome.ok) return json(422, { errors: outcome.userErrors.map((e) => e.message).join("; ") });
    delete shop.carts[token!];
    core.commit(shop, outcome.events);
    return json(200, { order: outcome.value.order, customer_id: outcome.value.customerId, contract_ids: outcome.value.contractIds });
  }
  return page("Not found", "<h1>Not found</h1>", 404);
}
