// The query values of the Admin API reads (and of the in-app analytics page), as zod schemas in
// the surface: the domain takes typed options and never sees a query string (decision 100, like
// the subscription filters in ./subscription-filters.ts). Every rule is a 400 invalid_request
// whose message names the offending value: an unknown enum value or an unparseable timestamp is
// never ignored (/docs#section/Decisions-on-open-points).
//
// Two steps, on purpose: the route's `query` schema (strings, strict) refuses unknown names and is
// what /docs publishes; these schemas read the values inside the handler, after the page's limit
// and cursor, so a request with several faults is refused for the same one as always.
import { z } from "zod";
import { ApiError } from "../infra/errors";
import { isGid, parseIsoTimestamp } from "./fields";
import { SUBSCRIPTION_FILTER_STATUSES, type SubscriptionFilterOptions } from "../domain/subscriptions/filters.server";
import { PLAN_STATUSES, type PlanFilters } from "../domain/catalog/selling-plans.server";
import { GIFT_STATUSES, type GiftFilters } from "../domain/gifts/gifts.server";
import { NOTIFICATION_STATUSES, type NotificationFilters } from "../domain/notifications/notifications.server";
import { NOTIFICATION_EVENT_NAMES } from "./notification-events";
import { RANGES, WINDOWS, type Range, type Window } from "../domain/insights/analytics.server";
import { PREVIEW_DEFAULT_COUNT, PREVIEW_MAX_COUNT } from "../domain/catalog/plan-schedule.server";
import { parseCivil } from "../domain/shared/schedule";

type Values = Record<string, string | undefined>;

/** Reads `query` with `schema`; the first issue (in the schema's key order) is the 400's message. */
export function readQuery<S extends z.ZodType>(schema: S, query: Values): z.output<S> {
  const r = schema.safeParse(query);
  if (r.success) return r.data;
  throw new ApiError("invalid_request", r.error.issues[0].message);
}

/** A value that is absent when missing or empty (an HTML form sends every field). */
const given = (raw: string | undefined) => (raw === undefined || raw === "" ? undefined : raw);

function refuse(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER as never;
}

/** One value of a closed set, matched case-insensitively; the output is the canonical spelling. */
function oneOf<T extends string>(name: string, values: readonly T[]): z.ZodType<T | undefined, string | undefined>;
function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): z.ZodType<T, string | undefined>;
function oneOf<T extends string>(name: string, values: readonly T[], fallback?: T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T | undefined => {
      const v = given(raw);
      if (v === undefined) return fallback;
      const hit = values.find((x) => x.toLowerCase() === v.toLowerCase());
      return hit ?? refuse(ctx, `Unknown ${name} "${v}": expected one of ${values.join(", ")}`);
    });
}

/** A platform gid of the given type, e.g. gid://shopify/Customer/123. */
const gid = (name: string, type: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = given(raw);
      if (v === undefined || isGid(v, type)) return v;
      return refuse(ctx, `${name} "${v}" is not a ${type} id (gid://shopify/${type}/<number>)`);
    });

const timestamp = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = given(raw);
      if (v === undefined) return undefined;
      return parseIsoTimestamp(v) ?? refuse(ctx, `${name} "${v}" is not an ISO 8601 timestamp (e.g. 2025-01-31T00:00:00Z)`);
    });

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** GET /subscriptions: status, plan_id (a selling plan group), customer_id, updated_after. */
export const subscriptionListQuery = z
  .object({
    status: oneOf("status", SUBSCRIPTION_FILTER_STATUSES),
    plan_id: gid("plan_id", "SellingPlanGroup"),
    customer_id: gid("customer_id", "Customer"),
    updated_after: timestamp("updated_after"),
  })
  .transform((q): SubscriptionFilterOptions => ({
    status: q.status,
    sellingPlanGroupGid: q.plan_id,
    customerGid: q.customer_id,
    updatedAfter: q.updated_after,
  }));

/** GET /plans: status. */
export const planListQuery = z.object({ status: oneOf("status", PLAN_STATUSES) }).transform((q): PlanFilters => ({ status: q.status }));

/** GET /gifts: status. */
export const giftListQuery = z.object({ status: oneOf("status", GIFT_STATUSES) }).transform((q): GiftFilters => ({ status: q.status }));

/** GET /notifications: event, status, customer_id. */
export const notificationListQuery = z
  .object({
    event: oneOf("event", NOTIFICATION_EVENT_NAMES),
    status: oneOf("status", NOTIFICATION_STATUSES),
    customer_id: gid("customer_id", "Customer"),
  })
  .transform((q): NotificationFilters => ({ event: q.event, status: q.status, customerId: q.customer_id }));

/** GET /bundles/:id/boxes: period (YYYY-MM), absent for the most recent periods. */
export const boxListQuery = z.object({
  period: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = given(raw);
      if (v === undefined || PERIOD.test(v)) return v;
      return refuse(ctx, `period "${v}" is not a month in the form YYYY-MM`);
    }),
});

/** GET /analytics/churn and /analytics/recovery: range, 30d by default. */
export const rangeQuery = z.object({ range: oneOf("range", RANGES, "30d") }).transform((q): Range => q.range);

/** GET /analytics/cohorts: window, 12 by default. */
export const windowQuery = z.object({ window: oneOf("window", WINDOWS, "12") }).transform((q): Window => q.window);

/** GET /plans/{id}/schedule (and the Storefront API's): start (YYYY-MM-DD, default the shop's today), count (1..24, default 6). */
export const schedulePreviewQuery = z.object({
  start: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = given(raw);
      if (v === undefined) return undefined;
      return parseCivil(v) ?? refuse(ctx, `start "${v}" is not a calendar day in the form YYYY-MM-DD`);
    }),
  count: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = given(raw);
      if (v === undefined) return PREVIEW_DEFAULT_COUNT;
      const n = /^[0-9]{1,3}$/.test(v) ? Number(v) : NaN;
      if (n >= 1 && n <= PREVIEW_MAX_COUNT) return n;
      return refuse(ctx, `count "${v}" must be a whole number from 1 to ${PREVIEW_MAX_COUNT}`);
    }),
});
