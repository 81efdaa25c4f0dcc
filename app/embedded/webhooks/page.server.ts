// The Webhooks page's server side (app/routes/app.webhooks.tsx): what the page shows and what its
// buttons do, through the very domain functions the Admin API's webhook routes call
// (app/domain/outbound-webhooks/, docs/decisions/054-webhook-management.md), with the admin session's
// shop — no HTTP call to the app itself. Below Pro the page shows the upgrade path and only
// disable and delete still work. docs/decisions/075-webhooks-page.md.
import type { AdminShop } from "../../domain/shop/lifecycle.server";
import { planAllowsApi } from "../../domain/shop/shops.server";
import { attemptLogs } from "../../domain/outbound-webhooks/attempt-log.server";
import {
  DISABLE_AFTER_EXHAUSTED,
  EVENT_CATALOGUE,
  EVENT_TYPES,
  isEventType,
  MAX_ACTIVE_ENDPOINTS,
  RETRY_LADDER_MS,
} from "../../domain/outbound-webhooks/catalogue";
import { listDeliveries, recoverDeliveries, resendDelivery, sendTestEvent, type DeliveryFilters } from "../../domain/outbound-webhooks/deliveries.server";
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpoint } from "../../domain/outbound-webhooks/endpoints.server";
import { checkEndpointUrl, UrlRuleError } from "../../domain/outbound-webhooks/url-rules.server";
import { decodeCursor, encodeCursor } from "../../http/cursor.server";
import { eventBodies } from "../../domain/outbound-webhooks/events-feed.server";
import { ApiError } from "../../infra/errors";
import { UPGRADE_URL } from "../export-center.server";

const PAGE_SIZE = 25;
const DELIVERY_STATUSES = ["pending", "delivered", "failed", "exhausted"] as const;
type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

const rung = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} m` : `${ms / 3_600_000} h`);

type PageShop = Pick<AdminShop, "id" | "appPlan" | "partnerDevelopment" | "platformPlanPaid">;

export async function webhooksPageData(shop: PageShop, params: URLSearchParams) {
  const endpoints = await listEndpoints(shop.id);
  // Filters the shop cannot have (another shop's endpoint id, an unknown status or event) are dropped.
  const endpointId = endpoints.some((e) => e.id === params.get("endpoint")) ? params.get("endpoint")! : "";
  const status = (DELIVERY_STATUSES as readonly string[]).includes(params.get("status") ?? "") ? (params.get("status") as DeliveryStatusName) : "";
  const event = isEventType(params.get("event") ?? "") ? params.get("event")! : "";
  const filters: DeliveryFilters = { ...(endpointId ? { endpointId } : {}), ...(status ? { status } : {}), ...(event ? { event } : {}) };
  // The cursor continues only this shop's list with these filters (docs/decisions/012-cursors.md).
  const bind = ["webhooks-page", shop.id, endpointId, status, event].join("|");

  let cursorError: string | null = null;
  let after = null;
  const cursor = params.get("cursor");
  if (cursor) {
    try {
      after = decodeCursor(cursor, bind);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      cursorError = "That page link is no longer valid; showing the newest deliveries.";
    }
  }
  const page = await listDeliveries({ shopId: shop.id, filters, page: { limit: PAGE_SIZE, after } });
  const details = await attemptLogs(
    shop.id,
    page.data.map((d) => d.id),
  );
  const urls = new Map(endpoints.map((e) => [e.id, e.url]));
  const bodies = await eventBodies(
    shop.id,
    page.data.map((d) => d.eventId),
  );
  return {
    pro: planAllowsApi(shop),
    upgradeUrl: UPGRADE_URL,
    maxEndpoints: MAX_ACTIVE_ENDPOINTS,
    disableAfter: DISABLE_AFTER_EXHAUSTED,
    ladder: RETRY_LADDER_MS.map(rung).join(", "),
    catalogue: EVENT_TYPES.map((name) => ({ name, firesWhen: EVENT_CATALOGUE[name].firesWhen })),
    statuses: DELIVERY_STATUSES,
    endpoints,
    filters: { endpoint: endpointId, status, event },
    cursorError,
    paged: !!after,
    nextCursor: page.next ? encodeCursor(page.next, bind) : null,
    deliveries: page.data.map((d) => ({
      ...d,
      endpointUrl: urls.get(d.endpointId) ?? "(deleted endpoint)",
      test: details.get(d.id)?.test ?? false,
      attemptLog: details.get(d.id)?.attempts ?? [],
      // The body sent, byte for byte (never the receiver's answer: it is not read; docs/decisions/126).
      body: bodies.get(d.eventId) ?? null,
    })),
  };
}

export const INTENTS = ["create", "enable", "disable", "delete", "test", "resend", "recover"] as const;
export type Intent = (typeof INTENTS)[number];
/** What still works below Pro: switching an endpoint off and deleting it. */
const ALLOWED_BELOW_PRO: readonly Intent[] = ["disable", "delete"];

export type WebhooksActionResult =
  | { ok: true; intent: Intent; message: string; created?: { url: string; secret: string } }
  | { ok: false; intent: Intent | null; error: string; field?: "url" | "events" };

/**
 * A refusal the page shows (a URL rule, a missing field, the cap, below Pro, not found) is an
 * answer with `ok: false`, not an HTTP error: the page's own fetcher reads it, and a 4xx would
 * only add a "failed to load resource" error to the browser's console. Only an unknown intent is 400.
 */
export async function webhooksPageAction(shop: PageShop, form: FormData): Promise<{ body: WebhooksActionResult; status: number }> {
  const raw = String(form.get("intent") ?? "");
  if (!(INTENTS as readonly string[]).includes(raw)) return { body: { ok: false, intent: null, error: "Unknown action." }, status: 400 };
  const intent = raw as Intent;
  const done = (message: string, created?: { url: string; secret: string }) => ({
    body: { ok: true as const, intent, message, ...(created ? { created } : {}) },
    status: 200,
  });
  const fail = (error: string, field?: "url" | "events") => ({
    body: { ok: false as const, intent, error, ...(field ? { field } : {}) },
    status: 200,
  });
  if (!planAllowsApi(shop) && !ALLOWED_BELOW_PRO.includes(intent)) return fail("Outbound webhooks are part of the Pro plan.");
  const id = String(form.get("id") ?? "");
  try {
    switch (intent) {
      case "create": {
        const url = String(form.get("url") ?? "").trim();
        const events = form.getAll("events").map(String);
        if (!url) return fail("Enter the URL that should receive the events.", "url");
        if (!events.length) return fail("Choose at least one event.", "events");
        // The URL rules first, on their own, so a refusal is shown on the URL field
        // (createEndpoint checks them again, docs/decisions/053-webhook-url-rules.md).
        try {
          await checkEndpointUrl(url);
        } catch (err) {
          if (err instanceof UrlRuleError) return fail(err.message, "url");
          throw err;
        }
        const created = await createEndpoint({ shopId: shop.id, url, events });
        return done("Endpoint added", { url: created.url, secret: created.secret });
      }
      case "enable":
        await updateEndpoint({ shopId: shop.id, id, enabled: true });
        return done("Endpoint re-enabled");
      case "disable":
        await updateEndpoint({ shopId: shop.id, id, enabled: false });
        return done("Endpoint disabled");
      case "delete":
        await deleteEndpoint(shop.id, id);
        return done("Endpoint deleted");
      case "test":
        await sendTestEvent({ shopId: shop.id, endpointId: id });
        return done("Test event sent");
      case "resend":
        await resendDelivery({ shopId: shop.id, deliveryId: id });
        return done("Delivery resent");
      case "recover": {
        const since = String(form.get("since") ?? "");
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(since) || Number.isNaN(Date.parse(`${since}:00Z`)))
          return fail("Choose the date and time to recover from.");
        const result = await recoverDeliveries({ shopId: shop.id, endpointId: id, since: new Date(`${since}:00Z`) });
        return done(result.queued === 1 ? "1 delivery resent" : `${result.queued} deliveries resent`);
      }
    }
  } catch (err) {
    if (err instanceof ApiError) return fail(err.message);
    throw err;
  }
}
