// Plan reads (/docs#tag/Admin-API:-Plans). A plan is a selling plan group: the API returns
// selling_plan_group_id and never the child selling plan id (the cart gap, rule 10).
import type { SellingPlanGroup } from "@prisma/client";
import { prisma } from "../../db.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";
import type { AnchoredSchedule, Schedule, Interval } from "../shared/schedule";

export const PLAN_STATUSES = ["active", "archived"] as const;

export interface PlanFilters {
  status?: (typeof PLAN_STATUSES)[number];
}

/** The shop's mirrored selling plan groups, newest first (the surface shapes them). */
export async function listPlans(ctx: { shopId: string; filters: PlanFilters; page: PageRequest }): Promise<PageResult<SellingPlanGroup>> {
  const rows = await prisma.sellingPlanGroup.findMany({
    where: {
      shopId: ctx.shopId,
      ...(ctx.filters.status ? { status: ctx.filters.status === "active" ? "ACTIVE" : "ARCHIVED" } : {}),
      ...afterWhere(ctx.page.after),
    },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, (g) => g);
}

/** The engine's form of a mirrored group's anchored schedule; null for a rolling group. */
export function anchoredScheduleOf(
  g: Pick<SellingPlanGroup, "scheduleMode" | "anchorDay" | "anchorMonths" | "cutoffDays" | "preAnchorBehavior" | "shipDay" | "intervalCount">,
): AnchoredSchedule | null {
  if (g.scheduleMode !== "ANCHORED" || !g.anchorDay) return null;
  return {
    mode: "anchored",
    anchorDay: g.anchorDay,
    anchorMonths: g.anchorMonths ?? [],
    intervalCount: g.anchorMonths?.length ? 1 : Math.max(1, g.intervalCount),
    cutoffDays: g.cutoffDays ?? 0,
    preAnchorBehavior: g.preAnchorBehavior ?? "NEXT",
    shipDay: g.shipDay,
  };
}

/** The shop's IANA time zone (Shopify's shop { ianaTimezone }), the calendar schedules count in. */
export async function shopTimeZone(shopId: string): Promise<string> {
  const shop = await prisma.shop.findUnique({ where: { id: shopId }, select: { ianaTimezone: true } });
  return shop?.ianaTimezone ?? "UTC";
}

/**
 * The schedule a contract bills on, for skip/reschedule. The plan's schedule when the contract's
 * group is mirrored and anchored; otherwise the contract's own billing policy (rolling).
 */
export async function scheduleForContract(
  shopId: string,
  c: { sellingPlanGroupGid: string | null; billingInterval: string | null; billingIntervalCount: number | null },
): Promise<Schedule | null> {
  const group = c.sellingPlanGroupGid
    ? await prisma.sellingPlanGroup.findUnique({ where: { shopId_groupGid: { shopId, groupGid: c.sellingPlanGroupGid } } })
    : null;
  const anchored = group ? anchoredScheduleOf(group) : null;
  if (anchored) return anchored;
  const interval = (c.billingInterval ?? group?.interval ?? "").toUpperCase();
  const count = c.billingIntervalCount ?? group?.intervalCount ?? null;
  if (!["DAY", "WEEK", "MONTH", "YEAR"].includes(interval) || !count || count < 1) return null;
  return { mode: "rolling", interval: interval as Interval, intervalCount: count };
}

/** The shop's plan groups by name, for filters (every status: old subscriptions keep their plan). */
export async function planGroupOptions(shopId: string): Promise<{ label: string; value: string }[]> {
  const groups = await prisma.sellingPlanGroup.findMany({
    where: { shopId },
    select: { groupGid: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return groups.map((g) => ({ label: g.name, value: g.groupGid }));
}
