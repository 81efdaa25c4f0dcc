// The Customer API (/docs#tag/Customer-API:-Portal): publishable key + X-Service-Session. Only
// POST /session runs without a session. Every route that names a contract asks the platform
// whether the session's customer owns it before anything else
// (docs/decisions/070-customer-api-ownership.md); the build-a-box object is
// docs/decisions/072-box-object.md.
import { z } from "zod";
import { ApiError } from "../../infra/errors";
import { customerForAccessToken, issueCustomerSession } from "../../domain/customer/session.server";
import { getCustomerBox, saveCustomerBox } from "../../domain/customer/box.server";
import {
  customerPaymentMethod,
  listCustomerSubscriptions,
  recordCancelReason,
  recordSaveEvent,
  rescheduleCustomerSubscription,
  SAVE_OFFERS,
  saveEventType,
  sendPaymentUpdateEmail,
  swapOptions,
  updateCustomerLine,
  type PortalContext,
} from "../../domain/customer/portal.server";
import {
  getNotificationPreferences,
  normalisePreferences,
  notificationActivity,
  setNotificationPreferences,
} from "../../domain/customer/notification-preferences.server";
import { portalConfigFor } from "../../domain/shop/shops.server";
import { INVALID_CREDENTIAL_MESSAGE, SESSION_HEADER } from "../../http/auth.server";
import { contractGid, lineGid } from "../../http/ids";
import { defineRoute, type RouteContext } from "../../http/route";

const Session = z.strictObject({
  session_token: z.string().describe("svc_cst_…; send as X-Service-Session"),
  expires_at: z.string().describe("ISO 8601, 30 minutes after issue"),
  expires_in: z.number().int().describe("seconds (1800)"),
  customer_id: z.string(),
  session_header: z.literal(SESSION_HEADER),
});

const PortalConfig = z.strictObject({
  reschedule_max_months: z.number().int(),
  cancel_flow: z.strictObject({ offer_pause: z.boolean(), offer_skip: z.boolean(), show_reason_survey: z.boolean(), reasons: z.array(z.string()) }),
  portal_actions: z.strictObject({
    hide_skip: z.boolean(),
    hide_pause: z.boolean(),
    hide_cancel: z.boolean(),
    hide_edit_address: z.boolean(),
    hide_edit_quantity: z.boolean(),
    hide_swap_product: z.boolean(),
    hide_change_date: z.boolean(),
  }),
});

const sessionRoutes = [
  defineRoute({
    method: "POST",
    path: "/session",
    scopes: [],
    session: false,
    body: z.object({ customer_access_token: z.string().min(1).max(4096) }),
    summary: "Exchange a customer account access token for a 30-minute service session",
    description:
      "The platform token is not parsed or trusted: it is spent on one query for the customer it belongs to. Every refusal (no such customer, wrong shop, expired) is the same 401 invalid_credential. Refresh by calling again.",
    tags: ["Session"],
    response: Session,
    async handler(ctx) {
      const customerId = await customerForAccessToken(ctx.shop.domain, ctx.body.customer_access_token);
      if (!customerId) throw new ApiError("invalid_credential", INVALID_CREDENTIAL_MESSAGE);
      const s = issueCustomerSession({ shopId: ctx.shop.id, customerId, keyId: ctx.key.id });
      return {
        body: {
          session_token: s.token,
          expires_at: s.expiresAt.toISOString(),
          expires_in: s.expiresIn,
          customer_id: customerId,
          session_header: SESSION_HEADER,
        },
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/config",
    scopes: [],
    summary: "Portal configuration: reschedule window, cancel flow and the actions the merchant hid",
    tags: ["Portal"],
    response: PortalConfig,
    async handler(ctx) {
      return { body: await portalConfigFor(ctx.shop.id) };
    },
  }),
];

// ---- portal resources ---------------------------------------------------------------------------

const variantGid = z
  .string()
  .regex(/^gid:\/\/shopify\/ProductVariant\/[0-9]{1,20}$/, "must be gid://shopify/ProductVariant/<number>")
  .meta({ example: "gid://shopify/ProductVariant/3001" });

const contractParams = z.strictObject({ contract_id: contractGid });
const lineParams = z.strictObject({ contract_id: contractGid, line_id: lineGid });
const noQuery = z.strictObject({});
const Ok = z.strictObject({ ok: z.literal(true) });

const Summary = z.strictObject({
  contract_id: z.string(),
  status: z.string().describe("The platform's status: ACTIVE, PAUSED, CANCELLED, EXPIRED, FAILED or STALE"),
  order_name: z.string().nullable(),
  product_title: z.string().nullable(),
  frequency_label: z.string().nullable(),
  next_billing_at: z.string().nullable(),
  charge_amount: z.number().nullable().describe("Per-charge amount, all lines, in currency_code (decimal)"),
  currency_code: z.string(),
  selling_plan_id: z.string().nullable(),
  selling_plan_group_id: z.string().nullable(),
  created_at: z.string(),
});

const BoxItem = {
  variant_id: z.string(),
  product_title: z.string(),
  variant_title: z.string().nullable(),
  image_url: z.string().nullable(),
  price_cents: z.number().int().describe("Menu price snapshot in minor units of the shop currency"),
};

const Box = z.strictObject({
  contract_id: z.string(),
  is_bundle: z.boolean().describe("The contract subscribes under a bundle's selling plan group"),
  build_a_box: z.boolean().describe("That bundle lets the customer pick the box (only then can it be edited)"),
  bundle: z
    .strictObject({
      id: z.string(),
      title: z.string(),
      kind: z.enum(["curated", "build_a_box", "regular"]),
      selection_cutoff_days: z.number().int(),
      box_size_min: z.number().int().nullable(),
      box_size_max: z.number().int().nullable(),
    })
    .nullable(),
  period: z.string().nullable().describe("YYYY-MM of the next charge: the period the box ships"),
  next_billing_at: z.string().nullable(),
  menu: z
    .strictObject({
      published: z.boolean(),
      published_at: z.string().nullable(),
      items: z.array(z.strictObject({ ...BoxItem, position: z.number().int() })).describe("Empty until the menu is published"),
    })
    .nullable()
    .describe("null when the merchant has no menu for the period"),
  selection: z
    .strictObject({ items: z.array(z.strictObject({ ...BoxItem, quantity: z.number().int() })), updated_at: z.string() })
    .nullable()
    .describe("The customer's current pick for the period; null when none was saved"),
  editable: z.boolean(),
  edit_closes_at: z.string().nullable().describe("selection_cutoff_days before next_billing_at; picks are accepted strictly before it"),
  closed_reason: z
    .enum(["not_build_a_box", "no_upcoming_charge", "menu_not_published", "past_cutoff", "subscription_inactive"])
    .nullable()
    .describe("Why editable is false (null when it is true)"),
});

const PaymentMethod = z.strictObject({
  kind: z.string().describe("credit_card, shop_pay, paypal or other"),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  expiry_month: z.number().int().nullable(),
  expiry_year: z.number().int().nullable(),
  paypal_email: z.string().nullable(),
  expiry_state: z
    .enum(["valid", "expiring_soon", "expired", "not_applicable"])
    .describe("expiring_soon: within 60 days of the end of the expiry month; not_applicable: no expiry (PayPal)"),
});

const SwapOption = z.strictObject({
  variant_id: z.string(),
  variant_title: z.string(),
  product_title: z.string(),
  image_url: z.string().nullable(),
  price: z.string().describe("Decimal string in the shop currency"),
  available: z.boolean(),
});

const Preferences = {
  categories: z.array(z.strictObject({ key: z.string(), label: z.string(), description: z.string() })),
  values: z.strictObject({ reminders: z.boolean(), orders: z.boolean(), box: z.boolean(), winback: z.boolean() }),
};

/** The calendar date itself must exist (2026-02-30 does not). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
  .refine((d) => {
    const t = new Date(`${d}T12:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
  }, "is not a calendar date")
  .meta({ example: "2026-12-15" });

const portal = (ctx: Pick<RouteContext, "shop" | "customerId">): PortalContext => ({
  shopId: ctx.shop.id,
  shopDomain: ctx.shop.domain,
  customerId: ctx.customerId!,
});

const OWNERSHIP = ["forbidden", "not_found", "internal_error"] as const;
const EDIT_OWNERSHIP = [...OWNERSHIP, "state_conflict"] as const;

const portalRoutes = [
  defineRoute({
    method: "GET",
    path: "/subscriptions",
    scopes: [],
    query: z.object({}).describe("Any query parameter is ignored: the list is always the session customer's"),
    summary: "The session customer's subscriptions (summaries)",
    description:
      "Scoped by the verified session's customer; no parameter changes whose subscriptions come back. Newest first, at most 100. Detail, lines and line ids come from the platform.",
    tags: ["Subscriptions"],
    response: z.strictObject({ subscriptions: z.array(Summary) }),
    handler: async (ctx) => ({ body: { subscriptions: await listCustomerSubscriptions(portal(ctx)) } }),
  }),
  defineRoute({
    method: "GET",
    path: "/subscriptions/:contract_id/box",
    scopes: [],
    params: contractParams,
    query: noQuery,
    summary: "The contract's box: bundle, the period's menu, the current pick and whether it can still be edited",
    tags: ["Build-a-box"],
    errorCodes: OWNERSHIP,
    response: Box,
    handler: async (ctx) => ({ body: await getCustomerBox({ ...portal(ctx), contractGid: ctx.params.contract_id }) }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_id/box",
    scopes: [],
    params: contractParams,
    body: z.object({
      items: z
        .array(z.object({ variant_id: variantGid, quantity: z.number().int().min(1).max(100) }))
        .min(1)
        .max(100)
        .meta({ example: [{ variant_id: "gid://shopify/ProductVariant/3001", quantity: 2 }] }),
    }),
    summary: "Pick the period's box (build-a-box plans), applied to the contract at once",
    description:
      "Send variant ids and quantities only: titles, images and prices come from the published menu. Open strictly before edit_closes_at and once the menu is published, else 409 selection_closed. " +
      "Every variant must be on the menu (each once) and the total quantity within box_size_min..box_size_max, else 400.",
    tags: ["Build-a-box"],
    errorCodes: [...EDIT_OWNERSHIP, "invalid_request", "selection_closed"],
    response: z.strictObject({ ok: z.literal(true), box: Box }),
    handler: async (ctx) => ({
      body: {
        ok: true as const,
        box: await saveCustomerBox({
          ...portal(ctx),
          contractGid: ctx.params.contract_id,
          items: ctx.body.items.map((i) => ({ variantId: i.variant_id, quantity: i.quantity })),
        }),
      },
    }),
  }),
  defineRoute({
    method: "GET",
    path: "/subscriptions/:contract_id/payment-method",
    scopes: [],
    params: contractParams,
    query: noQuery,
    summary: "The contract's payment method (null for manual or invoice billing); its id is never returned",
    tags: ["Payment method"],
    errorCodes: OWNERSHIP,
    response: z.strictObject({ payment_method: PaymentMethod.nullable() }),
    handler: async (ctx) => ({ body: { payment_method: await customerPaymentMethod({ ...portal(ctx), contractGid: ctx.params.contract_id }) } }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_id/payment-method/update-email",
    scopes: [],
    params: contractParams,
    body: z.object({}).optional(),
    summary: "Ask the platform to e-mail the shopper a secure link to update the payment method",
    description: "400 invalid_request when the contract has no saved payment method; 500 internal_error when the platform refused to send.",
    tags: ["Payment method"],
    errorCodes: [...EDIT_OWNERSHIP, "invalid_request"],
    response: Ok,
    handler: async (ctx) => {
      await sendPaymentUpdateEmail({ ...portal(ctx), contractGid: ctx.params.contract_id });
      return { body: { ok: true as const } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/subscriptions/:contract_id/lines/:line_id/swap-options",
    scopes: [],
    params: lineParams,
    query: noQuery,
    summary: "Variants the line can be swapped to: those of the selling plan group it subscribes under",
    description: "An empty list is a valid answer (never a 404). 404 not_found only when the contract or the line does not exist.",
    tags: ["Lines"],
    errorCodes: OWNERSHIP,
    response: z.strictObject({ options: z.array(SwapOption) }),
    handler: async (ctx) => ({ body: { options: await swapOptions({ ...portal(ctx), contractGid: ctx.params.contract_id, lineGid: ctx.params.line_id }) } }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_id/lines/:line_id",
    scopes: [],
    params: lineParams,
    body: z
      .object({
        quantity: z.number().int("must be a whole number").min(1).max(1000).optional().meta({ example: 2 }),
        product_variant_id: variantGid.optional(),
      })
      .refine((b) => b.quantity !== undefined || b.product_variant_id !== undefined, "send quantity, product_variant_id or both"),
    summary: "Change a line's quantity and/or variant (draft, update, commit: all or nothing)",
    description:
      "A variant must be offered by the line's selling plan group. A platform refusal at any step is 400 invalid_request with the platform's message; nothing is committed.",
    tags: ["Lines"],
    errorCodes: [...EDIT_OWNERSHIP, "invalid_request"],
    response: Ok,
    handler: async (ctx) => {
      await updateCustomerLine({
        ...portal(ctx),
        contractGid: ctx.params.contract_id,
        lineGid: ctx.params.line_id,
        quantity: ctx.body.quantity,
        variantId: ctx.body.product_variant_id,
      });
      return { body: { ok: true as const } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_id/reschedule",
    scopes: [],
    params: contractParams,
    body: z.object({ date: isoDate }),
    summary: "Move the next charge to a date within the merchant's reschedule window",
    description: "The date is a calendar day, charged at 12:00 UTC; it must be in the future and within reschedule_max_months (GET /config) of today.",
    tags: ["Subscriptions"],
    errorCodes: [...EDIT_OWNERSHIP, "invalid_request"],
    response: z.strictObject({ ok: z.literal(true), next_billing_at: z.string() }),
    handler: async (ctx) => {
      const r = await rescheduleCustomerSubscription({ ...portal(ctx), contractGid: ctx.params.contract_id, date: ctx.body.date });
      return { body: { ok: true as const, next_billing_at: r.nextBillingAt } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_id/cancel-reason",
    scopes: [],
    params: contractParams,
    body: z.object({ reason: z.string().trim().min(1).max(500).meta({ example: "Too much coffee" }) }),
    summary: "Record why the customer is cancelling (works on a cancelled contract)",
    description:
      "Checked against the local mirror (shop, contract, customer), failing closed: no row is 404 and nothing is written. Best effort: a failed insert still answers ok.",
    tags: ["Cancellation"],
    errorCodes: ["forbidden", "not_found"],
    response: Ok,
    handler: async (ctx) => {
      await recordCancelReason({ ...portal(ctx), contractGid: ctx.params.contract_id, reason: ctx.body.reason });
      return { body: { ok: true as const } };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_id/save-event",
    scopes: [],
    params: contractParams,
    body: z.object({
      offer_type: z.enum(SAVE_OFFERS),
      event_type: z.string().max(64).optional().describe("shown or accepted; anything else counts as shown").meta({ example: "accepted" }),
    }),
    summary: "Record a retention offer shown or accepted in the cancel flow (send a shown with every accepted)",
    description: "Preserved revenue is derived server-side from the mirror. Checked against the mirror like cancel-reason; best effort.",
    tags: ["Cancellation"],
    errorCodes: ["forbidden", "not_found"],
    response: Ok,
    handler: async (ctx) => {
      await recordSaveEvent({
        ...portal(ctx),
        contractGid: ctx.params.contract_id,
        offerType: ctx.body.offer_type,
        eventType: saveEventType(ctx.body.event_type),
      });
      return { body: { ok: true as const } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/notification-preferences",
    scopes: [],
    query: noQuery,
    summary: "The customer's notification categories and their values",
    description: "Essential account and billing mail is not a category and cannot be turned off.",
    tags: ["Notifications"],
    response: z.strictObject(Preferences),
    handler: async (ctx) => ({ body: await getNotificationPreferences({ shopId: ctx.shop.id, customerId: ctx.customerId! }) }),
  }),
  defineRoute({
    method: "POST",
    path: "/notification-preferences",
    scopes: [],
    body: z
      .object({
        preferences: z
          .record(z.string(), z.unknown())
          .describe("The full map (not a patch): a category left out returns to its default (on). Unknown keys are dropped, not rejected.")
          .meta({ example: { reminders: true, orders: true, box: false, winback: false } }),
      })
      .refine(
        (b) => Object.entries(b.preferences).every(([k, v]) => !["reminders", "orders", "box", "winback"].includes(k) || typeof v === "boolean"),
        "a category's value must be true or false",
      ),
    summary: "Replace the customer's notification preferences",
    tags: ["Notifications"],
    response: z.strictObject({ ...Preferences, ok: z.literal(true) }),
    handler: async (ctx) => {
      const saved = await setNotificationPreferences({ shopId: ctx.shop.id, customerId: ctx.customerId!, values: normalisePreferences(ctx.body.preferences) });
      return { body: { ...saved, ok: true as const } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/notification-activity",
    scopes: [],
    query: noQuery,
    summary: "The customer's recent notifications, newest first (at most 50)",
    description: "Read-only and best effort: an internal failure answers an empty feed, not an error.",
    tags: ["Notifications"],
    response: z.strictObject({
      activity: z.array(z.strictObject({ id: z.string(), title: z.string(), status: z.string(), occurred_at: z.string() })),
    }),
    handler: async (ctx) => ({ body: { activity: await notificationActivity({ shopId: ctx.shop.id, customerId: ctx.customerId! }) } }),
  }),
];

export const customerRoutes = [...sessionRoutes, ...portalRoutes];
