// Admin API webhook management (scope manage:webhooks): endpoints, the delivery log, the event
// catalogue, and the additive manual sends (test, resend, recover). The domain functions in
// app/domain/outbound-webhooks/ do the work (the Webhooks page calls the same ones); this file binds
// paths, schemas and the wire shapes. docs/decisions/054-webhook-management.md.
import { z } from "zod";
import { defineRoute } from "../../http/route";
import { decodeCursor, toEnvelope } from "../../http/cursor.server";
import { rowId } from "../../http/ids";
import { clampLimit } from "../../domain/shared/paging.server";
import { ApiError } from "../../infra/errors";
import { EVENT_CATALOGUE, EVENT_TYPES, MAX_ACTIVE_ENDPOINTS, RETRY_LADDER_MS, isEventType, type EventType } from "../../domain/outbound-webhooks/catalogue";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpointsPage,
  updateEndpoint,
  type EndpointView,
} from "../../domain/outbound-webhooks/endpoints.server";
import {
  getDelivery,
  listDeliveries,
  recoverDeliveries,
  resendDelivery,
  sendTestEvent,
  RECOVER_MAX,
  type DeliveryView,
} from "../../domain/outbound-webhooks/deliveries.server";
import { isoTimestamp } from "../fields";
import { FEED_DAYS, listFeedEvents } from "../../domain/outbound-webhooks/events-feed.server";
import { page, Timestamp } from "./schemas";
import { fixedListPage, fixedListQuery } from "../fixed-lists";

const TAGS = ["Webhooks"];
const SCOPES = ["manage:webhooks"] as const;
const noQuery = z.object({}).strict();
const LIMIT_DOC = "Page size: default 50, maximum 250 (larger values are clamped)";
const pagingQuery = z
  .object({ limit: z.string().optional().describe(LIMIT_DOC), cursor: z.string().optional().describe("Opaque cursor from next_cursor") })
  .strict();
const idParams = z.object({ id: rowId });
const DELIVERY_STATUSES = ["pending", "delivered", "failed", "exhausted"] as const;

const EventName = z.string().meta({ example: "subscription.cancelled" });

const Endpoint = z.strictObject({
  id: z.string(),
  url: z.string().describe("https URL; cannot be changed after creation"),
  events: z.array(z.string()).describe("subscribed event names"),
  enabled: z.boolean(),
  disabled_reason: z
    .string()
    .nullable()
    .describe("additive: why it is disabled: exhausted (ten consecutive deliveries exhausted their ladder), uninstalled, or merchant; null while enabled"),
  disabled_at: Timestamp.nullable().describe("additive"),
  created_at: Timestamp.describe("additive"),
});
const CreatedEndpoint = Endpoint.extend({
  secret: z.string().describe("whsec_… signing secret: returned by this response only, never again"),
});

const Delivery = z.strictObject({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string().describe("evt_…, the body's id"),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  response_code: z.number().int().nullable(),
  last_error: z.string().nullable().describe("composed by the service; the receiver's body is never read or stored"),
  delivered_at: Timestamp.nullable(),
  created_at: Timestamp,
  next_attempt_at: Timestamp.nullable().describe("additive: when the next attempt is due (pending or failed)"),
  manual: z.boolean().describe("additive: a test event, resend or recover asked for by the merchant (one attempt, no ladder)"),
});
const Attempt = z.strictObject({
  number: z.number().int(),
  manual: z.boolean(),
  started_at: Timestamp,
  finished_at: Timestamp,
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
  outcome: z.enum(DELIVERY_STATUSES),
});
const DeliveryDetail = Delivery.extend({ attempt_log: z.array(Attempt).describe("every attempt, oldest first") });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const endpointJson = (e: EndpointView): z.input<typeof Endpoint> => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  disabled_at: iso(e.disabledAt),
  created_at: e.createdAt.toISOString(),
});

const deliveryJson = (d: DeliveryView): z.input<typeof Delivery> => ({
  id: d.id,
  endpoint_id: d.endpointId,
  event_id: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  response_code: d.responseCode,
  last_error: d.lastError,
  delivered_at: iso(d.deliveredAt),
  created_at: d.createdAt.toISOString(),
  next_attempt_at: iso(d.nextAttemptAt),
  manual: d.manual,
});

const ladder = RETRY_LADDER_MS.map((ms) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} m` : `${ms / 3_600_000} h`)).join(", ");

const DELIVERY_REFERENCE = [
  "Each event is POSTed to every enabled endpoint subscribed to it, one delivery per (event, endpoint), with `Content-Type: application/json; charset=utf-8`, `User-Agent: SERVICE-Webhooks/1.0`, `X-Service-Signature`, `X-Service-Event-Id`, `X-Service-Event-Type`, `X-Service-Shop-Domain`, `X-Service-Api-Version: v1`.",
  'Body: `{ id, type, api_version, created_at, shop_domain, data }` (a test event adds `"test": true`); `id` (`evt_…`) is the same on every retry and receivers dedupe on it.',
  `Any 2xx delivers; a 3xx is a failure (redirects are never followed); 410 exhausts at once; other failures and timeouts (10 s) retry at ${ladder} (six attempts). Ten consecutive exhausted deliveries disable the endpoint; a success resets the count; events while disabled are never replayed.`,
  "The URL rules are checked again as every connection is made, on the address the connection then uses.",
].join(" ");

const URL_RULES =
  "URL rules: https only; no credentials; no private, loopback, link-local, carrier-grade NAT, unique-local, multicast, documentation or cloud-metadata address, whether written as an IP in any notation (decimal, octal, hex, short forms) or as a name resolving to one (every address it resolves to must be public); IPv4-mapped, IPv4-compatible, NAT64, 6to4 and Teredo IPv6 addresses are refused outright.";

const createBody = z
  .strictObject({
    url: z.string().max(2048).describe("https URL of the receiver"),
    events: z
      .array(z.string().max(100))
      .max(EVENT_TYPES.length * 2)
      .describe("event names from GET /webhooks/events (at least one)"),
  })
  .meta({ example: { url: "https://hooks.example.com/subscriptions", events: ["subscription.cancelled", "subscription.paused"] } });

const patchBody = z
  .strictObject({
    events: z
      .array(z.string().max(100))
      .max(EVENT_TYPES.length * 2)
      .optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => b.events !== undefined || b.enabled !== undefined, { message: "name events and/or enabled (the URL cannot be changed)" })
  .meta({ example: { enabled: true } });

export const adminWebhookRoutes = [
  defineRoute({
    method: "GET",
    path: "/webhooks/events",
    scopes: SCOPES,
    query: fixedListQuery(),
    summary: "The subscribable event catalogue, with each event's data fields",
    description:
      "Subscription is opt-in per event; there is no wildcard. Reserved names not listed (e.g. subscription.skipped, bundle.generated) are refused at subscribe time. `data` carries ids, statuses, dates and amounts only, never a name, e-mail or address.",
    tags: TAGS,
    response: page(
      z.strictObject({
        name: z.string(),
        fires_when: z.string(),
        data_fields: z.array(z.string()).describe("the keys of data, in order"),
        example_data: z.record(z.string(), z.unknown()),
      }),
    ),
    handler: (ctx) => ({
      body: fixedListPage(
        ctx.query,
        EVENT_TYPES.map((name) => ({
          name,
          fires_when: EVENT_CATALOGUE[name].firesWhen,
          data_fields: Object.keys(EVENT_CATALOGUE[name].data.shape),
          example_data: EVENT_CATALOGUE[name].example,
        })),
        "webhook-events",
      ),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/endpoints",
    scopes: SCOPES,
    query: noQuery,
    body: createBody,
    successStatus: 201,
    summary: "Create an endpoint (the only response that carries its signing secret)",
    description: `${URL_RULES} At most ${MAX_ACTIVE_ENDPOINTS} active endpoints per shop. An unknown or reserved event name, a URL rule or the cap is 400 invalid_request saying which. Idempotency-Key is ignored: a retried create makes a second endpoint, so list before retrying. ${DELIVERY_REFERENCE}`,
    errorCodes: ["invalid_request"],
    tags: TAGS,
    response: CreatedEndpoint,
    handler: async (ctx) => {
      const created = await createEndpoint({ shopId: ctx.shop.id, url: ctx.body.url, events: ctx.body.events });
      return { status: 201, body: { ...endpointJson(created), secret: created.secret } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/endpoints",
    scopes: SCOPES,
    query: pagingQuery,
    summary: "The shop's endpoints, newest first (never their secrets)",
    tags: TAGS,
    response: page(Endpoint),
    handler: async (ctx) => {
      const bind = "webhook-endpoints";
      const pageRequest = { limit: clampLimit(ctx.query.limit), after: ctx.query.cursor ? decodeCursor(ctx.query.cursor, bind) : null };
      const result = await listEndpointsPage(ctx.shop.id, pageRequest);
      return { body: toEnvelope({ data: result.data.map(endpointJson), next: result.next }, bind) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/endpoints/:id",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    summary: "One endpoint",
    tags: TAGS,
    response: Endpoint,
    handler: async (ctx) => ({ body: endpointJson(await getEndpoint(ctx.shop.id, ctx.params.id)) }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/webhooks/endpoints/:id",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    body: patchBody,
    summary: "Change an endpoint's events or enable/disable it (the URL cannot change)",
    description: `Re-enabling resets the exhausted count and counts towards the cap of ${MAX_ACTIVE_ENDPOINTS}; events that occurred while the endpoint was disabled are not replayed.`,
    tags: TAGS,
    response: Endpoint,
    handler: async (ctx) => ({ body: endpointJson(await updateEndpoint({ shopId: ctx.shop.id, id: ctx.params.id, ...ctx.body })) }),
  }),
  defineRoute({
    method: "DELETE",
    path: "/webhooks/endpoints/:id",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    summary: "Delete an endpoint and its delivery log",
    tags: TAGS,
    response: z.strictObject({ id: z.string(), deleted: z.literal(true) }),
    handler: async (ctx) => ({ body: await deleteEndpoint(ctx.shop.id, ctx.params.id) }),
  }),
  defineRoute({
    method: "GET",
    path: "/events",
    scopes: SCOPES,
    query: z
      .object({
        limit: z.string().optional().describe(LIMIT_DOC),
        cursor: z.string().optional().describe("Opaque cursor from next_cursor"),
        type: z.string().optional().describe("an event name from the catalogue"),
        created_after: isoTimestamp().optional().describe("at or after this ISO 8601 timestamp"),
        created_before: isoTimestamp().optional().describe("strictly before this ISO 8601 timestamp"),
      })
      .strict(),
    summary: `Every event published to the shop in the last ${FEED_DAYS} days, newest first, with the exact body its deliveries carry`,
    description: `Additive to v1. \`body\` is the delivery body byte for byte: a signature (X-Service-Signature) received for the event verifies against it. Whether or not any endpoint subscribed to the event, and whatever happened to its deliveries, it is listed; test events sent from the Webhooks page are not. \`npm run cli -- webhooks listen --forward-to <url>\` follows this feed and forwards each event to a local receiver.`,
    tags: TAGS,
    response: page(
      z.strictObject({
        id: z.string().describe("evt_…"),
        type: z.string(),
        created_at: Timestamp,
        body: z.string().describe("the delivery body, byte for byte (a JSON document as a string)"),
      }),
    ),
    handler: async (ctx) => {
      const q = ctx.query;
      if (q.type !== undefined && !isEventType(q.type))
        throw new ApiError("invalid_request", `type "${q.type.slice(0, 60)}" is not in the catalogue (GET /webhooks/events)`);
      const bind = ["events", q.type ?? "", q.created_after?.toISOString() ?? "", q.created_before?.toISOString() ?? ""].join("|");
      const pageRequest = { limit: clampLimit(q.limit), after: q.cursor ? decodeCursor(q.cursor, bind) : null };
      const result = await listFeedEvents({
        shopId: ctx.shop.id,
        filters: { type: q.type, createdAfter: q.created_after, createdBefore: q.created_before },
        page: pageRequest,
      });
      return {
        body: toEnvelope(
          { data: result.data.map((e) => ({ id: e.id, type: e.type, created_at: e.createdAt.toISOString(), body: e.body })), next: result.next },
          bind,
        ),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/deliveries",
    scopes: SCOPES,
    query: z
      .object({
        limit: z.string().optional().describe("Page size: default 50, maximum 250 (larger values are clamped)"),
        cursor: z.string().optional().describe("Opaque cursor from next_cursor"),
        endpoint_id: rowId.optional().describe("only this endpoint's deliveries"),
        status: z.string().optional().describe("pending, delivered, failed or exhausted"),
        event: z.string().optional().describe("an event name from the catalogue"),
      })
      .strict(),
    summary: "The delivery log (30 days), newest first",
    tags: TAGS,
    response: page(Delivery),
    handler: async (ctx) => {
      const q = ctx.query;
      const status = q.status === undefined ? undefined : DELIVERY_STATUSES.find((s) => s === q.status?.toLowerCase());
      if (q.status !== undefined && !status)
        throw new ApiError("invalid_request", `status must be one of ${DELIVERY_STATUSES.join(", ")} (got "${q.status.slice(0, 40)}")`);
      if (q.event !== undefined && !isEventType(q.event))
        throw new ApiError("invalid_request", `event "${q.event.slice(0, 60)}" is not in the catalogue (GET /webhooks/events)`);
      const bind = ["webhook-deliveries", q.endpoint_id ?? "", status ?? "", q.event ?? ""].join("|");
      const pageRequest = { limit: clampLimit(q.limit), after: q.cursor ? decodeCursor(q.cursor, bind) : null };
      const result = await listDeliveries({ shopId: ctx.shop.id, filters: { endpointId: q.endpoint_id, status, event: q.event }, page: pageRequest });
      return { body: toEnvelope({ data: result.data.map(deliveryJson), next: result.next }, bind) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/deliveries/:id",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    summary: "Additive: one delivery with its attempt log (manual attempts marked)",
    tags: TAGS,
    response: DeliveryDetail,
    handler: async (ctx) => {
      const d = await getDelivery(ctx.shop.id, ctx.params.id);
      return {
        body: {
          ...deliveryJson(d),
          attempt_log: d.attemptLog.map((a) => ({
            number: a.number,
            manual: a.manual,
            started_at: a.startedAt.toISOString(),
            finished_at: a.finishedAt.toISOString(),
            response_code: a.responseCode,
            error: a.error,
            outcome: a.outcome,
          })),
        },
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/endpoints/:id/test",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    body: z
      .strictObject({ event: EventName.optional().describe("which catalogue event to imitate (default: the endpoint's first subscribed event)") })
      .meta({ example: { event: "subscription.cancelled" } }),
    successStatus: 202,
    summary: "Additive: send a test event to this endpoint (enabled or not)",
    description:
      'Queues one delivery of a new event whose body carries `"test": true` and the catalogue\'s example data. One attempt, no retry ladder; marked manual in the log; a failure does not count towards disabling the endpoint.',
    tags: TAGS,
    response: Delivery,
    handler: async (ctx) => {
      const type = ctx.body.event;
      if (type !== undefined && !isEventType(type))
        throw new ApiError("invalid_request", `event "${type.slice(0, 60)}" is not in the catalogue (GET /webhooks/events)`);
      return { status: 202, body: deliveryJson(await sendTestEvent({ shopId: ctx.shop.id, endpointId: ctx.params.id, type: type as EventType | undefined })) };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/deliveries/:id/resend",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    successStatus: 202,
    summary: "Additive: resend one delivery now (same event id and body)",
    description:
      "One manual attempt, marked in the log, no retry ladder. A delivery waiting for its next retry has that retry brought forward; a pending one is already on its way.",
    tags: TAGS,
    response: Delivery,
    handler: async (ctx) => ({ status: 202, body: deliveryJson(await resendDelivery({ shopId: ctx.shop.id, deliveryId: ctx.params.id })) }),
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/endpoints/:id/recover",
    scopes: SCOPES,
    params: idParams,
    query: noQuery,
    body: z.strictObject({ since: isoTimestamp().describe("deliveries created at or after this time") }).meta({ example: { since: "2026-11-20T00:00:00Z" } }),
    successStatus: 202,
    summary: "Additive: resend every failed or exhausted delivery of this endpoint since a time",
    description: `At most ${RECOVER_MAX} deliveries per call, oldest first (call again for more). Each gets one manual attempt, marked in the log. Events that occurred while the endpoint was disabled have no delivery and are not recovered.`,
    tags: TAGS,
    response: z.strictObject({ queued: z.number().int(), delivery_ids: z.array(z.string()) }),
    handler: async (ctx) => {
      const r = await recoverDeliveries({ shopId: ctx.shop.id, endpointId: ctx.params.id, since: ctx.body.since });
      return { status: 202, body: { queued: r.queued, delivery_ids: r.deliveryIds } };
    },
  }),
];
