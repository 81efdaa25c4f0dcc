// The hosted portal's pages: HTML fragments answered as application/liquid, which Shopify renders
// inside the shop's theme layout (docs/decisions/140-hosted-portal-app-proxy.md). Every action is
// a plain form posting to the proxy (docs/decisions/141-hosted-portal-forms.md): no script.
// Text from the store or the shopper is escaped for HTML and for Liquid ({ and } become
// entities), so a product title cannot run Liquid in the theme.
import type { OwnedContract } from "../../domain/subscriptions/reads.server";
import type { HistoryEntry } from "../../domain/subscriptions/history.server";
import type { SubscriptionSummary, SwapOption } from "../../domain/customer/portal.server";
import type { PreferencesView } from "../../domain/customer/notification-preferences.server";
import type { PortalConfigView } from "../../domain/shop/shops.server";
import type { SaveOffer } from "../../domain/customer/portal.server";
import type { CustomerBox } from "../../domain/customer/box.server";
import { formatMinor } from "../../domain/shared/money.server";
import { addMonths } from "../../domain/shared/schedule";
import { isHidden, type PortalActionName } from "../../domain/customer/hosted-portal.server";
import type { AddressErrors, AddressField, AddressValues } from "../../domain/customer/delivery-address.server";

export const esc = (s: string): string => s.replace(/[&<>"'{}%]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The numeric tail of a gid: the id in the portal's paths. */
export const tail = (gid: string): string => gid.split("/").pop() ?? "";

const STYLE = `<style>.sp{max-width:720px}.sp section{border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin:12px 0}.sp h1{font-size:1.6em;margin:.4em 0}.sp h2{font-size:1.2em;margin:.2em 0 .6em}.sp dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:0}.sp dt{font-weight:600}.sp dd{margin:0}.sp form{margin:8px 0}.sp label{display:block;margin:4px 0}.sp input,.sp select,.sp button{font:inherit;padding:8px;max-width:100%;box-sizing:border-box}.sp button{background:#1a1a1a;color:#fff;border:0;border-radius:6px;padding:10px 14px;cursor:pointer;margin:4px 0}.sp .field-error{display:block;color:#b3261e;margin:2px 0 8px}.sp input[type=text]{width:100%}.sp .notice{background:#e7f5ea;border:1px solid #1f7a3a;border-radius:6px;padding:8px 12px}.sp .error{background:#fdecea;border:1px solid #b3261e;border-radius:6px;padding:8px 12px}.sp ul{padding-left:20px}.sp a{color:#1a1a1a}</style>`;

export const wrap = (body: string): string => `${STYLE}<div class="sp">${body}</div>`;

function day(d: Date | null): string {
  return d ? d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) : "—";
}

function price(cents: number | null, currency: string): string {
  return cents === null ? "—" : `${formatMinor(cents, currency)} ${currency}`;
}

const STATUS_LABEL: Record<string, string> = {
  ACTIVE: "Active",
  PAUSED: "Paused",
  CANCELLED: "Cancelled",
  EXPIRED: "Expired",
  FAILED: "Payment failed",
  STALE: "Needs attention",
};
const status = (s: string) => STATUS_LABEL[s] ?? s;

/** Fixed messages by code: a redirect carries the code, never text to reflect. */
export const NOTICES = {
  skipped: "Your next delivery is skipped.",
  paused: "Your subscription is paused.",
  resumed: "Your subscription is active again.",
  rescheduled: "Your next charge date has changed.",
  quantity: "The quantity has changed.",
  swapped: "The product has changed.",
  cancelled: "Your subscription is cancelled.",
  saved_pause: "Your subscription is paused instead of cancelled.",
  saved_skip: "Your next delivery is skipped instead of cancelling.",
  box: "Your box for this period is saved.",
  payment_email: "We sent you an e-mail with a link to update your payment method.",
  preferences: "Your e-mail preferences are saved.",
  address: "Your delivery address has changed.",
} as const;
export type Notice = keyof typeof NOTICES;

const notice = (code: string | null) => (code && code in NOTICES ? `<p class="notice" role="status">${esc(NOTICES[code as Notice])}</p>` : "");

export interface FormContext {
  prefix: string;
  token: string;
}

function form(f: FormContext, action: string, inner: string, label: string): string {
  return `<form method="post" action="${esc(f.prefix + action)}"><input type="hidden" name="_token" value="${esc(f.token)}">${inner}<button type="submit">${esc(label)}</button></form>`;
}

export function loginPage(prefix: string): string {
  return wrap(`<h1>My subscriptions</h1><p>Log in to your account to manage your subscriptions.</p>
<p><a href="{{ routes.account_login_url }}?return_url=${encodeURIComponent(prefix)}">Log in</a></p>`);
}

export function errorPage(prefix: string, title: string, message: string): string {
  return wrap(`<h1>${esc(title)}</h1><p class="error" role="alert">${esc(message)}</p><p><a href="${esc(prefix)}">Back to my subscriptions</a></p>`);
}

export function listPage(f: FormContext, subs: SubscriptionSummary[], prefs: PreferencesView, done: string | null): string {
  const items = subs
    .map(
      (s) =>
        `<li><a href="${esc(`${f.prefix}/s/${tail(s.contract_id)}`)}">${esc(s.product_title ?? "Subscription")}</a> · ${esc(status(s.status))}${
          s.next_billing_at && s.status === "ACTIVE" ? ` · next charge ${esc(day(new Date(s.next_billing_at)))}` : ""
        }</li>`,
    )
    .join("");
  const checks = prefs.categories
    .map(
      (c) =>
        `<label><input type="checkbox" name="${esc(c.key)}" value="on"${prefs.values[c.key as keyof PreferencesView["values"]] ? " checked" : ""}> ${esc(c.label)}</label>`,
    )
    .join("");
  return wrap(`<h1>My subscriptions</h1>${notice(done)}
<section aria-labelledby="subs-h"><h2 id="subs-h">Subscriptions</h2>${items ? `<ul>${items}</ul>` : "<p>You have no subscriptions yet.</p>"}</section>
<section aria-labelledby="prefs-h"><h2 id="prefs-h">E-mail preferences</h2><p>Essential account and billing e-mail is always sent.</p>
${form(f, "/preferences", `<fieldset><legend>Send me</legend>${checks}</fieldset>`, "Save preferences")}</section>`);
}

export interface DetailInput {
  contract: OwnedContract;
  buildABox: boolean;
  history: HistoryEntry[];
  config: PortalConfigView;
  done: string | null;
  now: Date;
}

const HISTORY_LABEL: Record<string, string> = {
  "subscription.created": "Started",
  "subscription.renewed": "Charged",
  "subscription.renewal_reminder": "Reminder sent",
  "subscription.payment_failed": "Payment failed",
  "subscription.payment_recovered": "Payment recovered",
  "subscription.paused": "Paused",
  "subscription.cancelled": "Cancelled",
  "subscription.reactivated": "Resumed",
  "subscription.update_address": "Delivery address changed",
};

export function detailPage(f: FormContext, d: DetailInput): string {
  const c = d.contract;
  const path = `/s/${tail(c.contractGid)}`;
  const shown = (a: PortalActionName) => !isHidden(d.config, a);
  const open = c.status !== "CANCELLED" && c.status !== "EXPIRED";
  const active = c.status === "ACTIVE";
  const actions: string[] = [];
  if (active && c.nextBillingAt && shown("skip")) actions.push(form(f, `${path}/skip`, "", "Skip next delivery"));
  if (open && c.nextBillingAt && shown("change_date")) {
    const min = new Date(d.now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const max = addMonths(d.now, d.config.reschedule_max_months).toISOString().slice(0, 10);
    actions.push(
      form(
        f,
        `${path}/reschedule`,
        `<label for="date">New date of the next charge (within ${d.config.reschedule_max_months} months)</label><input id="date" name="date" type="date" required min="${min}" max="${max}" value="${c.nextBillingAt.toISOString().slice(0, 10)}">`,
        "Change date",
      ),
    );
  }
  if (active && shown("pause")) actions.push(form(f, `${path}/pause`, "", "Pause subscription"));
  if (c.status === "PAUSED" && shown("resume")) actions.push(form(f, `${path}/resume`, "", "Resume subscription"));
  if (d.buildABox && open) actions.push(`<p><a href="${esc(f.prefix + path)}/box">Pick this period's box</a></p>`);
  if (open && shown("edit_address")) actions.push(`<p><a href="${esc(f.prefix + path)}/address">Change delivery address</a></p>`);
  if (open) actions.push(form(f, `${path}/payment-email`, "", "E-mail me a payment update link"));
  if (open && shown("cancel")) actions.push(`<p><a href="${esc(f.prefix + path)}/cancel">Cancel subscription</a></p>`);

  const lines = c.lines
    .map((l) => {
      const lp = `${path}/lines/${esc(tail(l.lineGid))}`;
      const qty =
        open && shown("edit_quantity")
          ? form(
              f,
              lp,
              `<label for="q-${esc(tail(l.lineGid))}">Quantity of ${esc(l.title)}</label><input id="q-${esc(tail(l.lineGid))}" name="quantity" type="number" min="1" max="1000" required value="${l.quantity}">`,
              "Update quantity",
            )
          : "";
      const swap = open && shown("swap_product") ? `<p><a href="${esc(f.prefix + lp)}/swap">Swap ${esc(l.title)}</a></p>` : "";
      return `<li><strong>${esc(l.title)}</strong>${l.variantTitle ? ` (${esc(l.variantTitle)})` : ""} × ${l.quantity} · ${esc(price(l.priceCents, c.currencyCode))}${qty}${swap}</li>`;
    })
    .join("");
  const history = d.history
    .map((h) => `<li>${esc(day(new Date(h.at)))}: ${esc(HISTORY_LABEL[h.type] ?? h.type)}${h.new_status ? ` (${esc(status(h.new_status))})` : ""}</li>`)
    .join("");
  return wrap(`<p><a href="${esc(f.prefix)}">← My subscriptions</a></p><h1>${esc(c.productTitle ?? "Subscription")}</h1>${notice(d.done)}
<section aria-labelledby="sum-h"><h2 id="sum-h">Summary</h2><dl>
<dt>Status</dt><dd data-field="status">${esc(status(c.status))}</dd>
<dt>Price</dt><dd>${esc(price(c.chargeAmountCents, c.currencyCode))} per charge</dd>
<dt>Next charge</dt><dd data-field="next-charge">${esc(active ? day(c.nextBillingAt) : "—")}</dd>
<dt>Schedule</dt><dd>${esc(c.frequencyLabel ?? "—")}</dd>
<dt>Order</dt><dd>${esc(c.orderName ?? "—")}</dd></dl></section>
<section aria-labelledby="lines-h"><h2 id="lines-h">Products</h2><ul>${lines}</ul></section>
${actions.length ? `<section aria-labelledby="act-h"><h2 id="act-h">Manage</h2>${actions.join("")}</section>` : ""}
<section aria-labelledby="hist-h"><h2 id="hist-h">History</h2>${history ? `<ul>${history}</ul>` : "<p>No changes yet.</p>"}</section>`);
}

export function swapPage(f: FormContext, contractGid: string, lineGid: string, title: string, options: SwapOption[]): string {
  const path = `/s/${tail(contractGid)}`;
  const radios = options
    .filter((o) => o.available)
    .map(
      (o, i) =>
        `<label><input type="radio" name="variant_id" value="${esc(tail(o.variant_id))}"${i === 0 ? " required" : ""}> ${esc(o.product_title)} · ${esc(o.variant_title)} (${esc(o.price)})</label>`,
    )
    .join("");
  return wrap(
    `<p><a href="${esc(f.prefix + path)}">← Back</a></p><h1>Swap ${esc(title)}</h1>${
      radios
        ? form(f, `${path}/lines/${esc(tail(lineGid))}`, `<fieldset><legend>Choose a product</legend>${radios}</fieldset>`, "Swap product")
        : "<p>There is nothing else in this plan to swap to.</p>"
    }`,
  );
}

export function cancelPage(f: FormContext, contract: OwnedContract, config: PortalConfigView, offers: SaveOffer[]): string {
  const path = `/s/${tail(contract.contractGid)}`;
  const offerForms = offers
    .map((o) =>
      o === "pause"
        ? form(
            f,
            `${path}/cancel`,
            `<input type="hidden" name="choice" value="pause"><p>Need a break? Pause instead and resume whenever you like.</p>`,
            "Pause instead",
          )
        : form(
            f,
            `${path}/cancel`,
            `<input type="hidden" name="choice" value="skip"><p>Too much for now? Skip your next delivery instead.</p>`,
            "Skip next delivery instead",
          ),
    )
    .join("");
  const survey =
    config.cancel_flow.show_reason_survey && config.cancel_flow.reasons.length > 0
      ? `<label for="reason">Why are you cancelling?</label><select id="reason" name="reason"><option value="">Prefer not to say</option>${config.cancel_flow.reasons
          .map((r) => `<option value="${esc(r)}">${esc(r)}</option>`)
          .join("")}</select>`
      : "";
  return wrap(`<p><a href="${esc(f.prefix + path)}">← Keep my subscription</a></p><h1>Cancel ${esc(contract.productTitle ?? "subscription")}</h1>
${offerForms ? `<section aria-labelledby="offer-h"><h2 id="offer-h">Before you go</h2>${offerForms}</section>` : ""}
<section aria-labelledby="cancel-h"><h2 id="cancel-h">Cancel</h2>${form(f, `${path}/cancel`, `<input type="hidden" name="choice" value="cancel">${survey}`, "Cancel subscription")}</section>`);
}

const CLOSED: Record<string, string> = {
  not_build_a_box: "This subscription has no box to pick.",
  no_upcoming_charge: "There is no upcoming charge to pick a box for.",
  menu_not_published: "This period's menu is not published yet. Come back when it is.",
  past_cutoff: "Picking for this period has closed.",
  subscription_inactive: "The box can be picked while the subscription is active.",
};

export function boxPage(f: FormContext, box: CustomerBox, title: string, done: string | null): string {
  const path = `/s/${tail(box.contract_id)}`;
  const picked = new Map((box.selection?.items ?? []).map((i) => [i.variant_id, i.quantity]));
  const b = box.bundle;
  const size =
    b && (b.box_size_min !== null || b.box_size_max !== null) ? `<p>Pick ${b.box_size_min ?? 1} to ${b.box_size_max ?? "any number of"} items.</p>` : "";
  const current = box.selection?.items.length
    ? `<ul>${box.selection.items.map((i) => `<li>${esc(i.product_title)}${i.variant_title ? ` (${esc(i.variant_title)})` : ""} × ${i.quantity}</li>`).join("")}</ul>`
    : "<p>Nothing picked yet.</p>";
  const items = (box.menu?.items ?? [])
    .map((i) => {
      const id = `box-${esc(tail(i.variant_id))}`;
      return `<label for="${id}">${esc(i.product_title)}${i.variant_title ? ` · ${esc(i.variant_title)}` : ""}</label><input id="${id}" name="qty_${esc(tail(i.variant_id))}" type="number" min="0" max="100" value="${picked.get(i.variant_id) ?? 0}">`;
    })
    .join("");
  const closes = box.edit_closes_at ? `<p>Picking closes ${esc(day(new Date(box.edit_closes_at)))}.</p>` : "";
  return wrap(`<p><a href="${esc(f.prefix + path)}">← Back</a></p><h1>Your box${box.period ? ` for ${esc(box.period)}` : ""}</h1>${notice(done)}
<section aria-labelledby="pick-h"><h2 id="pick-h">Your pick for ${esc(title)}</h2>${current}</section>
${
  box.editable
    ? `<section aria-labelledby="menu-h"><h2 id="menu-h">This period's menu</h2>${size}${closes}${form(f, `${path}/box`, `<fieldset><legend>Quantities</legend>${items}</fieldset>`, "Save my box")}</section>`
    : `<p>${esc(CLOSED[box.closed_reason ?? ""] ?? "Picking is closed.")}</p>`
}`);
}

/** Label, autocomplete token and whether the browser should insist, per field of the address form. */
const ADDRESS_INPUTS: [AddressField, string, string, boolean][] = [
  ["firstName", "First name", "given-name", false],
  ["lastName", "Last name", "family-name", false],
  ["address1", "Street address", "address-line1", true],
  ["address2", "Apartment, suite, etc. (optional)", "address-line2", false],
  ["city", "City", "address-level2", true],
  ["provinceCode", "State or province code (for example NY)", "off", false],
  ["zip", "ZIP or postal code", "postal-code", false],
  ["countryCode", "Country code (two letters, for example US)", "country", true],
];

/** The delivery address form, prefilled; after a refused post, each message sits under its field. */
export function addressPage(f: FormContext, contract: OwnedContract, values: AddressValues, errors: AddressErrors = {}): string {
  const path = `/s/${tail(contract.contractGid)}`;
  const fields = ADDRESS_INPUTS.map(([name, label, auto, required]) => {
    const id = `addr-${name}`;
    const err = errors[name];
    const described = err ? ` aria-invalid="true" aria-describedby="${id}-error"` : "";
    const message = err ? `<span class="field-error" id="${id}-error">${esc(err)}</span>` : "";
    return `<label for="${id}">${esc(label)}</label><input id="${id}" name="${name}" type="text" autocomplete="${auto}"${required ? " required" : ""} value="${esc(values[name])}"${described}>${message}`;
  }).join("");
  const summary = Object.keys(errors).length ? `<p class="error" role="alert">Please correct the fields marked below.</p>` : "";
  return wrap(`<p><a href="${esc(f.prefix + path)}">← Back</a></p><h1>Delivery address</h1>
<p>Where ${esc(contract.productTitle ?? "your subscription")} is delivered from the next order on.</p>${summary}
${form(f, `${path}/address`, `<fieldset><legend>Address</legend>${fields}</fieldset>`, "Save address")}`);
}
