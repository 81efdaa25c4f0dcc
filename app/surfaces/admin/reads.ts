// Admin API reads (/docs#tag/Admin-API:-Subscriptions and the tags after it): fifteen GET routes over the domain read functions. The
// route's strict query schema refuses unknown parameters (a typo never silently widens a list);
// the values are read by the zod schemas of ../read-queries.ts (unknown enum values and bad
// timestamps are 400 naming the value), so the domain takes typed options (decision 100).
import { z } from "zod";
import { defineRoute, type RouteContext } from "../../http/route";
import { decodeCursor, toEncodedEnvelope, toEnvelope } from "../../http/cursor.server";
import { contractGid, rowId } from "../../http/ids";
import { clampLimit, type EncodedPage, type PageRequest, type PageResult } from "../../domain/shared/paging.server";
import { getSubscription, listSubscriptions } from "../../domain/subscriptions/reads.server";
import { listPlans } from "../../domain/catalog/selling-plans.server";
import { listBoxes, listBundles } from "../../domain/catalog/bundles.server";
import { getMixMatch, listMixMatch } from "../../domain/catalog/mixmatch.server";
import { listGifts } from "../../domain/gifts/gifts.server";
import { listCampaigns, listSends } from "../../domain/retention/winback.server";
import { listNotifications } from "../../domain/notifications/notifications.server";
import { churn, cohorts, mrr, recovery } from "../../domain/insights/analytics.server";
import { trends } from "../../domain/insights/trends.server";
import { cancellationInsights } from "../../domain/retention/cancel-insights.server";
import { fixedListPage, fixedListQuery } from "../fixed-lists";
import { NOTIFICATION_EVENT_NAMES } from "../notification-events";
import { boxListQuery, giftListQuery, notificationListQuery, planListQuery, rangeQuery, readQuery, subscriptionListQuery, windowQuery } from "../read-queries";
import * as S from "./schemas";
import {
  boxJson,
  bundleJson,
  campaignJson,
  cancellationsJson,
  trendsJson,
  notificationJson,
  planJson,
  churnJson,
  cohortsJson,
  giftJson,
  mixMatchDetailJson,
  mixMatchJson,
  mrrJson,
  recoveryJson,
  sendJson,
  subscriptionDetailJson,
  subscriptionPage,
} from "./wire";

const opt = (description: string) => z.string().optional().describe(description);
const paging = {
  limit: opt("Page size: default 50, maximum 250 (larger values are clamped)"),
  cursor: opt("Opaque cursor from next_cursor; a malformed cursor is 400 invalid_cursor"),
};
const listQuery = <T extends z.ZodRawShape>(shape: T) => z.object({ ...paging, ...shape }).strict();
const idParam = (name: string) => z.object({ [name]: name === "contract_gid" ? contractGid : rowId });

type Q = Record<string, string | undefined>;

/** Page request from the query; the cursor is bound to the list and its filters. */
function page(query: Q, bind: string): PageRequest {
  return { limit: clampLimit(query.limit), after: query.cursor ? decodeCursor(query.cursor, bind) : null };
}

const bindOf = (list: string, query: Q, filterNames: string[]) => [list, ...filterNames.map((n) => `${n}=${query[n] ?? ""}`)].join("|");

async function listed<T>(query: Q, list: string, filterNames: string[], fetch: (p: PageRequest) => Promise<PageResult<T> | EncodedPage<T>>) {
  const bind = bindOf(list, query, filterNames);
  const result = await fetch(page(query, bind));
  return { body: "items" in result ? toEncodedEnvelope(result, bind) : toEnvelope(result, bind) };
}

/** A domain page's rows in their wire shape. */
const shaped =
  <V, T>(map: (v: V) => T) =>
  async (p: Promise<PageResult<V>>): Promise<PageResult<T>> => {
    const { data, next } = await p;
    return { data: data.map(map), next };
  };

const readCustomers = (ctx: Pick<RouteContext, "hasScope">) => ctx.hasScope("read:customers");

export const adminReadRoutes = [
  defineRoute({
    method: "GET",
    path: "/subscriptions",
    scopes: ["read:subscriptions"],
    query: listQuery({
      status: opt("ACTIVE, PAUSED, CANCELLED or EXPIRED"),
      plan_id: opt("selling_plan_group_id to match"),
      customer_id: opt("gid://shopify/Customer/<number>"),
      updated_after: opt("ISO 8601 timestamp; rows updated strictly after it"),
    }),
    summary: "List subscriptions (the contract mirror)",
    response: S.page(S.Subscription),
    tags: ["Subscriptions"],
    handler: (ctx) =>
      listed(ctx.query, "subscriptions", ["status", "plan_id", "customer_id", "updated_after"], async (p) =>
        subscriptionPage(await listSubscriptions({ shopId: ctx.shop.id, filters: readQuery(subscriptionListQuery, ctx.query), page: p })),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/subscriptions/:contract_gid",
    scopes: ["read:subscriptions"],
    params: idParam("contract_gid"),
    query: z.object({}).strict(),
    summary: "One subscription, with its lines and gift",
    response: S.SubscriptionDetail,
    tags: ["Subscriptions"],
    handler: async (ctx) => ({
      body: subscriptionDetailJson(await getSubscription({ shopId: ctx.shop.id, canReadCustomers: readCustomers(ctx), contractGid: ctx.params.contract_gid })),
    }),
  }),
  defineRoute({
    method: "GET",
    path: "/plans",
    scopes: ["read:plans"],
    query: listQuery({ status: opt("active or archived") }),
    summary: "List plans (selling plan groups) with their schedule",
    response: S.page(S.Plan),
    tags: ["Plans"],
    handler: (ctx) =>
      listed(ctx.query, "plans", ["status"], (p) =>
        shaped(planJson)(listPlans({ shopId: ctx.shop.id, filters: readQuery(planListQuery, ctx.query), page: p })),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/bundles",
    scopes: ["read:bundles"],
    query: listQuery({}),
    summary: "List bundles (curated, build-a-box and regular)",
    response: S.page(S.Bundle),
    tags: ["Bundles"],
    handler: (ctx) => listed(ctx.query, "bundles", [], (p) => shaped(bundleJson)(listBundles({ shopId: ctx.shop.id, page: p }))),
  }),
  defineRoute({
    method: "GET",
    path: "/bundles/:id/boxes",
    scopes: ["read:bundles"],
    params: idParam("id"),
    query: fixedListQuery({ period: opt("YYYY-MM; without it, the 24 most recent periods") }),
    summary: "A bundle's boxes and their items, newest period first",
    response: S.page(S.Box),
    tags: ["Bundles"],
    handler: async (ctx) => {
      const { period } = readQuery(boxListQuery, ctx.query);
      const boxes = (await listBoxes({ shopId: ctx.shop.id, bundleId: ctx.params.id, period })).map(boxJson);
      return { body: fixedListPage(ctx.query, boxes, `boxes:${ctx.params.id}|period=${period ?? ""}`) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/mix-match",
    scopes: ["read:mixmatch"],
    query: listQuery({}),
    summary: "List Mix & Match plans",
    response: S.page(S.MixMatch),
    tags: ["Mix & Match"],
    handler: (ctx) => listed(ctx.query, "mix-match", [], (p) => shaped(mixMatchJson)(listMixMatch({ shopId: ctx.shop.id, page: p }))),
  }),
  defineRoute({
    method: "GET",
    path: "/mix-match/:id",
    scopes: ["read:mixmatch"],
    params: idParam("id"),
    query: z.object({}).strict(),
    summary: "One Mix & Match plan: full catalogue, cart_group_id, price_cents snapshot",
    response: S.MixMatchDetail,
    tags: ["Mix & Match"],
    handler: async (ctx) => ({ body: mixMatchDetailJson(await getMixMatch({ shopId: ctx.shop.id, id: ctx.params.id })) }),
  }),
  defineRoute({
    method: "GET",
    path: "/gifts",
    scopes: ["read:gifts"],
    query: listQuery({ status: opt("pending, sent, claimed, expired or ended") }),
    summary: "List gifts (names, e-mails and message only with read:customers; never a claim token)",
    response: S.page(S.Gift),
    tags: ["Gifts"],
    handler: (ctx) =>
      listed(ctx.query, "gifts", ["status"], (p) =>
        shaped(giftJson)(listGifts({ shopId: ctx.shop.id, canReadCustomers: readCustomers(ctx), filters: readQuery(giftListQuery, ctx.query), page: p })),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/winback/campaigns",
    scopes: ["read:winback"],
    query: listQuery({}),
    summary: "List win-back campaigns",
    response: S.page(S.Campaign),
    tags: ["Win-back"],
    handler: (ctx) => listed(ctx.query, "winback-campaigns", [], (p) => shaped(campaignJson)(listCampaigns({ shopId: ctx.shop.id, page: p }))),
  }),
  defineRoute({
    method: "GET",
    path: "/winback/campaigns/:id/sends",
    scopes: ["read:winback"],
    params: idParam("id"),
    query: listQuery({}),
    summary: "A campaign's send ledger with attribution outcome",
    response: S.page(S.Send),
    tags: ["Win-back"],
    handler: (ctx) =>
      listed(ctx.query, `winback-sends:${ctx.params.id}`, [], (p) => shaped(sendJson)(listSends({ shopId: ctx.shop.id, campaignId: ctx.params.id, page: p }))),
  }),
  defineRoute({
    method: "GET",
    path: "/notifications",
    scopes: ["read:notifications"],
    query: listQuery({
      event: opt(`notification event name: ${NOTIFICATION_EVENT_NAMES.join(", ")}`),
      status: opt("queued, sent, delivered, bounced, failed, deferred, skipped or held"),
      customer_id: opt("gid://shopify/Customer/<number>"),
    }),
    summary: "Outbound e-mail log with delivery lifecycle (no names or e-mail addresses)",
    response: S.page(S.Notification),
    tags: ["Notifications"],
    handler: (ctx) =>
      listed(ctx.query, "notifications", ["event", "status", "customer_id"], (p) =>
        shaped(notificationJson)(listNotifications({ shopId: ctx.shop.id, filters: readQuery(notificationListQuery, ctx.query), page: p })),
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/mrr",
    scopes: ["read:analytics"],
    query: z.object({}).strict(),
    summary: "Monthly recurring revenue and contracts_missing_amount",
    response: S.Mrr,
    tags: ["Analytics"],
    handler: async (ctx) => ({ body: mrrJson(await mrr(ctx.shop.id)) }),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/churn",
    scopes: ["read:analytics"],
    query: z.object({ range: opt("7d, 30d (default), 90d or 12mo") }).strict(),
    summary: "Churn over a range",
    response: S.Churn,
    tags: ["Analytics"],
    handler: async (ctx) => ({ body: churnJson(await churn(ctx.shop.id, readQuery(rangeQuery, ctx.query))) }),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/cohorts",
    scopes: ["read:analytics"],
    query: z.object({ window: opt("12 (default), 24 or all (months of signup cohorts)") }).strict(),
    summary: "Monthly signup cohorts and their retention",
    response: S.Cohorts,
    tags: ["Analytics"],
    handler: async (ctx) => ({ body: cohortsJson(await cohorts(ctx.shop.id, readQuery(windowQuery, ctx.query))) }),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/recovery",
    scopes: ["read:analytics"],
    query: z.object({ range: opt("7d, 30d (default), 90d or 12mo") }).strict(),
    summary: "Win-back recovery over a range",
    response: S.Recovery,
    tags: ["Analytics"],
    handler: async (ctx) => ({ body: recoveryJson(await recovery(ctx.shop.id, readQuery(rangeQuery, ctx.query))) }),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/trends",
    scopes: ["read:analytics"],
    query: z.object({}).strict(),
    summary: "MRR, churn and win-back by month for the last twelve months",
    description:
      "MRR at each month's end counts contracts that are ACTIVE now or ended after that instant; the mirror keeps no pause history, so paused contracts count in no month. The current month's MRR equals GET /analytics/mrr (docs/decisions/153).",
    response: S.Trends,
    tags: ["Analytics"],
    handler: async (ctx) => ({ body: trendsJson(await trends(ctx.shop.id)) }),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/cancellations",
    scopes: ["read:analytics"],
    query: z.object({ range: opt("7d, 30d (default), 90d or 12mo") }).strict(),
    summary: "What the cancel flow saved over a range: reasons, offers, save rate, revenue preserved",
    description:
      "From the cancel reasons and save events the Customer API records. The save rate counts subscriptions, not events: of those shown an offer in the range, the share that accepted one in the range (docs/decisions/114).",
    response: S.Cancellations,
    tags: ["Analytics"],
    handler: async (ctx) => ({ body: cancellationsJson(await cancellationInsights(ctx.shop.id, readQuery(rangeQuery, ctx.query))) }),
  }),
];
