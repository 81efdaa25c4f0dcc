// Shopify Billing, simulated (docs/simulator.md#billing): recurring app charges
// (AppSubscription) created by appSubscriptionCreate as PENDING, approved or declined by the
// merchant on the confirmation page (GET/POST /admin/<shop>/charges/<id>/confirm), listed by
// currentAppInstallation.activeSubscriptions while ACTIVE, ended by appSubscriptionCancel.
// Every status change sends app_subscriptions/update. Approving a charge replaces the app's
// other active charge (Shopify's APPLY_IMMEDIATELY, the default the app asks for).
import { normalizeDecimal } from "./decimal";
import type { SimCore } from "./core";
import {
  newGid,
  numericIdOf,
  type ShopState,
  type SimState,
  type UserError,
  type AppSubscription,
  type AppSubscriptionStatus,
  type Outcome,
  type SimEvent,
} from "./state";
import type { HttpAnswer } from "./http-answer";

const ok = <T>(value: T, events: SimEvent[] = []): Outcome<T> => ({ ok: true, value, events });
const refuse = <T>(message: string, field: string[] | null = null): Outcome<T> => ({
  ok: false,
  userErrors: [{ field, message, code: null } satisfies UserError],
});

/** A shop's charges (older state files have none). */
export const appSubscriptions = (shop: ShopState): AppSubscription[] => (shop.appSubscriptions ??= []);
const findCharge = (shop: ShopState, id: string) => appSubscriptions(shop).find((s) => s.id === id || String(numericIdOf(s.id)) === id);

export function appSubscriptionPayload(shop: ShopState, s: AppSubscription) {
  return {
    app_subscription: {
      admin_graphql_api_id: s.id,
      name: s.name,
      status: s.status,
      admin_graphql_api_shop_id: `gid://shopify/Shop/${shop.numericId}`,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      currency: s.currencyCode,
      price: s.amount,
      interval: s.interval.toLowerCase(),
      capped_amount: null,
      plan_handle: null,
    },
  };
}

const changed = (shop: ShopState, s: AppSubscription, status: AppSubscriptionStatus, now: Date): SimEvent => {
  s.status = status;
  s.updatedAt = now.toISOString();
  return { topic: "app_subscriptions/update", payload: appSubscriptionPayload(shop, s), app: "self" };
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CreateArgs = { name: string; returnUrl: string; test?: boolean | null; trialDays?: number | null; lineItems: any[] };

export function createAppSubscription(state: SimState, shop: ShopState, a: CreateArgs, now: Date): Outcome<AppSubscription> {
  if (!a.name.trim()) return refuse("Name can't be blank", ["name"]);
  if (!/^https?:\/\//.test(a.returnUrl)) return refuse("Return url is invalid", ["returnUrl"]);
  if (a.lineItems.length !== 1) return refuse("The simulator supports exactly one recurring line item", ["lineItems"]);
  const recurring = a.lineItems[0]?.plan?.appRecurringPricingDetails;
  if (!recurring) return refuse("Only recurring pricing is simulated", ["lineItems", "0", "plan"]);
  if (!(Number(recurring.price.amount) > 0)) return refuse("Price must be greater than 0", ["lineItems", "0", "plan", "appRecurringPricingDetails", "price"]);
  // Shopify refuses real charges on development stores.
  if (shop.plan.partnerDevelopment && !a.test) return refuse("The shop cannot accept the provided charge.", null);
  const s: AppSubscription = {
    id: newGid(state, "AppSubscription"),
    name: a.name,
    status: "PENDING",
    test: !!a.test,
    returnUrl: a.returnUrl,
    amount: normalizeDecimal(recurring.price.amount, recurring.price.currencyCode),
    currencyCode: recurring.price.currencyCode,
    interval: recurring.interval ?? "EVERY_30_DAYS",
    trialDays: a.trialDays ?? 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    currentPeriodEnd: null,
  };
  appSubscriptions(shop).push(s);
  return ok(s);
}

/** The merchant's answer on the confirmation page. */
export function decideAppSubscription(shop: ShopState, id: string, approve: boolean, now: Date): Outcome<AppSubscription> {
  const s = findCharge(shop, id);
  if (!s) return refuse("Charge not found", ["id"]);
  if (s.status !== "PENDING") return refuse(`Charge is ${s.status.toLowerCase()}, not pending`, null);
  const events: SimEvent[] = [];
  if (approve) {
    for (const other of appSubscriptions(shop)) if (other.status === "ACTIVE") events.push(changed(shop, other, "CANCELLED", now));
    const end = new Date(now.getTime() + (s.interval === "ANNUAL" ? 365 : 30) * 86_400_000);
    s.currentPeriodEnd = end.toISOString();
  }
  events.push(changed(shop, s, approve ? "ACTIVE" : "DECLINED", now));
  return ok(s, events);
}

export function cancelAppSubscription(shop: ShopState, id: string, now: Date): Outcome<AppSubscription> {
  const s = findCharge(shop, id);
  if (!s) return refuse("Subscription not found", ["id"]);
  if (s.status !== "ACTIVE") return refuse(`Cannot cancel a ${s.status.toLowerCase()} subscription`, ["id"]);
  return ok(s, [changed(shop, s, "CANCELLED", now)]);
}

export function gqlAppSubscription(s: AppSubscription) {
  return {
    __typename: "AppSubscription",
    id: s.id,
    name: s.name,
    status: s.status,
    test: s.test,
    trialDays: s.trialDays,
    returnUrl: s.returnUrl,
    createdAt: s.createdAt,
    currentPeriodEnd: s.currentPeriodEnd,
  };
}

export function gqlAppInstallation(shop: ShopState) {
  const all = appSubscriptions(shop);
  return {
    __typename: "AppInstallation",
    id: `gid://shopify/AppInstallation/${shop.numericId}`,
    activeSubscriptions: all.filter((s) => s.status === "ACTIVE").map(gqlAppSubscription),
  };
}

/** Where the merchant approves a charge: this simulator's own page. */
export const confirmationUrl = (core: SimCore, shop: ShopState, s: AppSubscription) =>
  `${core.publicUrl}/admin/${encodeURIComponent(shop.domain)}/charges/${numericIdOf(s.id)}/confirm`;

// --- the confirmation page ---------------------------------------------------------------------

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const html = (status: number, text: string): HttpAnswer => ({ status, body: null, text, headers: { "Content-Type": "text/html; charset=utf-8" } });

/**
 * Where Shopify sends the merchant afterwards: the charge's returnUrl. An admin URL
 * (https://admin.shopify.com/store/<store>/apps/<app>/<path>) becomes this simulator's admin page
 * for the same app path, so the merchant lands back inside the (simulated) admin.
 */
export function returnLocation(core: SimCore, shop: ShopState, s: AppSubscription): string {
  const url = new URL(s.returnUrl);
  const admin = /^\/store\/[^/]+\/apps\/(.+)$/.exec(url.pathname);
  const target =
    url.hostname === "admin.shopify.com" && admin ? new URL(`${core.publicUrl}/admin/${encodeURIComponent(shop.domain)}/apps/${admin[1]}${url.search}`) : url;
  target.searchParams.set("charge_id", String(numericIdOf(s.id)));
  return target.href;
}

export function confirmationPage(core: SimCore, shopDomain: string, chargeId: string, method: string, body: unknown): HttpAnswer {
  const shop = core.shop(shopDomain);
  const s = shop?.installation ? findCharge(shop, chargeId) : undefined;
  if (!shop || !s) return html(404, "<h1>No such charge</h1>");
  if (method === "POST") {
    const decision = (body as { decision?: string } | undefined)?.decision;
    if (decision !== "approve" && decision !== "decline") return html(400, "<h1>Choose approve or decline</h1>");
    const outcome = decideAppSubscription(shop, s.id, decision === "approve", core.now());
    if (!outcome.ok) return html(409, `<h1>${escapeHtml(outcome.userErrors[0].message)}</h1>`);
    core.commit(shop, outcome.events);
    core.record(shop, {
      api: "billing",
      operation: `appSubscription${decision === "approve" ? "Approve" : "Decline"}`,
      variables: { id: s.id },
      outcome: "ok",
    });
    return { status: 303, body: null, text: "", headers: { Location: returnLocation(core, shop, s), "Content-Type": "text/plain" } };
  }
  const pending = s.status === "PENDING";
  const price = `${escapeHtml(s.amount)} ${escapeHtml(s.currencyCode)} ${s.interval === "ANNUAL" ? "every year" : "every 30 days"}`;
  return html(
    200,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Approve subscription · Shopify admin (simulated)</title><link rel="icon" href="data:,">
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f1f1f1;color:#1a1a1a}header{padding:12px 16px;background:#1a1a1a;color:#fff;font-size:14px}
main{max-width:560px;margin:24px auto;padding:0 16px}section{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 2px rgba(0,0,0,.15)}
h1{font-size:20px;margin:0 0 12px}dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 20px}dt{color:#4a4a4a}dd{margin:0}
.actions{display:flex;gap:12px;flex-wrap:wrap}button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;cursor:pointer}
button.primary{background:#1a1a1a;color:#fff;border-color:#1a1a1a}</style></head>
<body><header>Shopify admin (simulated) · ${escapeHtml(shop.domain)}</header><main><section>
<h1>Approve subscription</h1>
<dl><dt>App</dt><dd>Subscriptions Service</dd><dt>Plan</dt><dd>${escapeHtml(s.name)}</dd><dt>Price</dt><dd>${price}</dd>
<dt>Status</dt><dd>${escapeHtml(s.status.toLowerCase())}${s.test ? " (test charge: nothing is billed)" : ""}</dd></dl>
${
  pending
    ? `<form method="post" class="actions"><button class="primary" name="decision" value="approve">Approve</button><button name="decision" value="decline">Decline</button></form>`
    : "<p>This charge has already been answered.</p>"
}
</section></main></body></html>`,
  );
}
