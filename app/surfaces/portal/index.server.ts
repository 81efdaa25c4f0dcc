// The hosted customer portal behind Shopify's app proxy (docs/decisions/140-hosted-portal-app-proxy.md):
// https://<shop>/apps/subscriptions/* arrives at /portal/* with a signed query. The signed
// logged_in_customer_id is the identity; every page and action goes through the same customer
// domain functions as the Customer API, which re-check ownership. GET renders, POST acts and
// redirects back (POST-redirect-GET); a POST must carry the form token of a page the same
// customer was shown (docs/decisions/141-hosted-portal-forms.md).
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import {
  cancelOffers,
  completeCancelFlow,
  customerSubscription,
  installedShop,
  subscriptionPage,
  pauseForCustomer,
  resumeForCustomer,
  skipForCustomer,
  assertShown,
  type CancelFlowChoice,
} from "../../domain/customer/hosted-portal.server";
import {
  listCustomerSubscriptions,
  rescheduleCustomerSubscription,
  sendPaymentUpdateEmail,
  swapOptions,
  updateCustomerLine,
  SAVE_OFFERS,
  type PortalContext,
} from "../../domain/customer/portal.server";
import {
  getNotificationPreferences,
  normalisePreferences,
  setNotificationPreferences,
  NOTIFICATION_CATEGORIES,
} from "../../domain/customer/notification-preferences.server";
import type { PortalConfigView } from "../../domain/shop/shops.server";
import { getCustomerBox, saveCustomerBox } from "../../domain/customer/box.server";
import { deliveryAddressFor, parseDeliveryAddress, updateDeliveryAddress } from "../../domain/customer/delivery-address.server";
import { withActor } from "../../infra/actor.server";
import { checkFormToken, formToken, verifyProxyRequest, type ProxyIdentity } from "./proxy.server";
import { addressPage, boxPage, cancelPage, detailPage, errorPage, listPage, loginPage, swapPage, type FormContext, type Notice } from "./pages.server";

/** Shopify renders application/liquid inside the theme; the portal's answers are never cached. */
function liquid(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "Content-Type": "application/liquid; charset=utf-8", "Cache-Control": "no-store" } });
}

const CONTRACT = /^\/s\/([0-9]{1,20})(\/.*)?$/;
const LINE = /^\/lines\/([A-Za-z0-9-]{1,64})(\/swap)?$/;
const contractGidOf = (n: string) => `gid://shopify/SubscriptionContract/${n}`;
const lineGidOf = (n: string) => `gid://shopify/SubscriptionLine/${n}`;

const TITLES: Partial<Record<string, string>> = {
  forbidden: "Not your subscription",
  not_found: "Subscription not found",
  invalid_request: "That did not work",
  state_conflict: "That cannot be changed now",
};

/** One request through the proxy: `splat` is the path below /portal. */
export async function portalRequest(request: Request, splat: string): Promise<Response> {
  const id = await verifyProxyRequest(request);
  // A request that is not Shopify's (forged, stale or unsigned): no page, no action.
  if (!id) return new Response("Bad signature", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const path = `/${splat}`.replace(/\/+$/, "") || "/";
  const shop = await installedShop(id.shopDomain);
  if (!shop) return liquid(errorPage(id.prefix, "Unavailable", "The subscription portal is not available in this store."), 404);
  if (!id.customerId) return liquid(loginPage(id.prefix), request.method === "GET" ? 200 : 401);
  const who = id as ProxyIdentity & { customerId: string };
  const ctx: PortalContext = { shopId: shop.id, shopDomain: shop.domain, customerId: who.customerId };
  const f: FormContext = { prefix: id.prefix, token: formToken(who) };
  try {
    if (request.method === "GET" || request.method === "HEAD") return await page(ctx, f, shop.config, path, new URL(request.url).searchParams.get("done"));
    if (request.method !== "POST") return liquid(errorPage(id.prefix, "Not allowed", "This page only answers GET and POST."), 405);
    const form = await readForm(request);
    if (!form || !checkFormToken(who, form.get("_token") ?? "")) {
      return liquid(errorPage(id.prefix, "Please try again", "This form has expired. Open the page again and repeat the change."), 403);
    }
    // The portal's writes are the signed-in customer's in the audit trail (docs/decisions/125-audit-log.md).
    const done = await withActor({ type: "customer", id: who.customerId }, () => act(ctx, f, path, form));
    if (done instanceof Response) return done;
    return new Response(null, { status: 303, headers: { Location: `${id.prefix}${done.to}?done=${done.notice}`, "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return liquid(errorPage(id.prefix, TITLES[err.code] ?? "That did not work", err.message), err.status);
    log.error("hosted portal request failed", { err, shop: shop.domain, path });
    return liquid(errorPage(id.prefix, "Something went wrong", "The store could not make that change just now. Please try again later."), 500);
  }
}

async function readForm(request: Request): Promise<URLSearchParams | null> {
  if (!(request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) return null;
  const text = await request.text();
  return text.length > 16_384 ? null : new URLSearchParams(text);
}

const notFound = () => new ApiError("not_found", "There is no such page in the portal.");

async function page(ctx: PortalContext, f: FormContext, config: PortalConfigView, path: string, done: string | null): Promise<Response> {
  if (path === "/") {
    const [subs, prefs] = await Promise.all([listCustomerSubscriptions(ctx), getNotificationPreferences(ctx)]);
    return liquid(listPage(f, subs, prefs, done));
  }
  const m = CONTRACT.exec(path);
  if (!m) throw notFound();
  const contractGid = contractGidOf(m[1]);
  const rest = m[2] ?? "";
  if (rest === "") {
    // The settings came with the shop row (installedShop); the rest is one round trip.
    const { contract, history, buildABox } = await subscriptionPage(ctx, contractGid);
    return liquid(detailPage(f, { contract, buildABox, history, config, done, now: new Date() }));
  }
  if (rest === "/box") {
    const { contract } = await customerSubscription(ctx, contractGid);
    return liquid(boxPage(f, await getCustomerBox({ ...ctx, contractGid }), contract.productTitle ?? "your subscription", done));
  }
  if (rest === "/address") {
    const { contract } = await customerSubscription(ctx, contractGid);
    return liquid(addressPage(f, contract, await deliveryAddressFor(ctx, contractGid)));
  }
  if (rest === "/cancel") {
    const config = await assertShown(ctx.shopId, "cancel");
    const { contract } = await customerSubscription(ctx, contractGid);
    return liquid(cancelPage(f, contract, config, cancelOffers(config, contract)));
  }
  const line = LINE.exec(rest);
  if (line?.[2]) {
    await assertShown(ctx.shopId, "swap_product");
    const { contract } = await customerSubscription(ctx, contractGid);
    const l = contract.lines.find((x) => x.lineGid === lineGidOf(line[1]));
    if (!l) throw notFound();
    const options = await swapOptions({ ...ctx, contractGid, lineGid: l.lineGid });
    return liquid(swapPage(f, contractGid, l.lineGid, l.title, options));
  }
  throw notFound();
}

const invalid = (message: string) => new ApiError("invalid_request", message);

async function act(ctx: PortalContext, f: FormContext, path: string, form: URLSearchParams): Promise<{ to: string; notice: Notice } | Response> {
  if (path === "/preferences") {
    const values = normalisePreferences(Object.fromEntries(NOTIFICATION_CATEGORIES.map((c) => [c.key, form.get(c.key) === "on"])));
    await setNotificationPreferences({ ...ctx, values });
    return { to: "", notice: "preferences" };
  }
  const m = CONTRACT.exec(path);
  if (!m) throw notFound();
  const contractGid = contractGidOf(m[1]);
  const back = `/s/${m[1]}`;
  const rest = m[2] ?? "";
  switch (rest) {
    case "/skip":
      await skipForCustomer(ctx, contractGid);
      return { to: back, notice: "skipped" };
    case "/pause":
      await pauseForCustomer(ctx, contractGid);
      return { to: back, notice: "paused" };
    case "/resume":
      await resumeForCustomer(ctx, contractGid);
      return { to: back, notice: "resumed" };
    case "/reschedule": {
      const date = form.get("date") ?? "";
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw invalid("Pick a date.");
      await assertShown(ctx.shopId, "change_date");
      await rescheduleCustomerSubscription({ ...ctx, contractGid, date });
      return { to: back, notice: "rescheduled" };
    }
    case "/box": {
      const items = [...form.entries()]
        .filter(([k, v]) => /^qty_[0-9]{1,20}$/.test(k) && v !== "" && v !== "0")
        .map(([k, v]) => {
          if (!/^[0-9]{1,3}$/.test(v)) throw invalid("Each quantity must be a whole number from 0 to 100.");
          return { variantId: `gid://shopify/ProductVariant/${k.slice(4)}`, quantity: Number(v) };
        });
      if (items.length === 0) throw invalid("Pick at least one item.");
      await saveCustomerBox({ ...ctx, contractGid, items });
      return { to: `${back}/box`, notice: "box" };
    }
    case "/address": {
      // Bad input is answered with the form again, a message on each field, and nothing written.
      const parsed = parseDeliveryAddress((name) => form.get(name));
      if (!parsed.ok) {
        await assertShown(ctx.shopId, "edit_address");
        const { contract } = await customerSubscription(ctx, contractGid);
        return liquid(addressPage(f, contract, parsed.values, parsed.errors), 400);
      }
      await updateDeliveryAddress({ ...ctx, contractGid, address: parsed.address });
      return { to: back, notice: "address" };
    }
    case "/payment-email":
      await sendPaymentUpdateEmail({ ...ctx, contractGid });
      return { to: back, notice: "payment_email" };
    case "/cancel": {
      const choice = form.get("choice");
      const reason = (form.get("reason") ?? "").trim().slice(0, 500);
      let flow: CancelFlowChoice;
      if (choice === "cancel") flow = { kind: "cancel", reason: reason || null };
      else if (choice && (SAVE_OFFERS as readonly string[]).includes(choice) && choice !== "discount")
        flow = { kind: "accept", offer: choice as "pause" | "skip" };
      else throw invalid("Choose to keep, pause, skip or cancel.");
      const r = await completeCancelFlow(ctx, contractGid, flow);
      return { to: back, notice: r.outcome === "cancelled" ? "cancelled" : r.outcome === "paused" ? "saved_pause" : "saved_skip" };
    }
  }
  const line = LINE.exec(rest);
  if (line && !line[2]) {
    const lineGid = lineGidOf(line[1]);
    const variant = form.get("variant_id");
    const quantity = form.get("quantity");
    if (variant !== null) {
      if (!/^[0-9]{1,20}$/.test(variant)) throw invalid("Choose a product.");
      await assertShown(ctx.shopId, "swap_product");
      await updateCustomerLine({ ...ctx, contractGid, lineGid, variantId: `gid://shopify/ProductVariant/${variant}` });
      return { to: back, notice: "swapped" };
    }
    if (quantity !== null) {
      const n = Number(quantity);
      if (!/^[0-9]{1,4}$/.test(quantity) || n < 1 || n > 1000) throw invalid("The quantity must be a whole number from 1 to 1000.");
      await assertShown(ctx.shopId, "edit_quantity");
      await updateCustomerLine({ ...ctx, contractGid, lineGid, quantity: n });
      return { to: back, notice: "quantity" };
    }
    throw invalid("Choose a quantity or a product.");
  }
  throw notFound();
}
