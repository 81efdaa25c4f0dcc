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

export type ScheduleJson =
  | { mode: "rolling" }
  | {
      mode: "anchored";
      anchor_day: number;
      anchor_months: number[];
      cutoff_days: number;
      pre_anchor_behavior: "NEXT" | "ASAP";
      ship_day: number | null;
      label: string;
    };

export interface PlanJson {
  selling_plan_group_id: string;
  name: string;
  status: "active" | "archived";
  cadence: { label: string; interval: string; interval_count: number };
  billing: { label: string };
  discount: { label: string };
  giftable: boolean;
  schedule: ScheduleJson;
  created_at: string;
  updated_at: string;
}

type ScheduleCols = Pick<SellingPlanGroup, "scheduleMode" | "anchorDay" | "anchorMonths" | "cutoffDays" | "preAnchorBehavior" | "shipDay" | "scheduleLabel">;

/** Rolling plans are exactly { mode: "rolling" }; anchored plans carry every schedule field. */
export function scheduleJson(g: ScheduleCols): ScheduleJson {
  if (g.scheduleMode !== "ANCHORED") return { mode: "rolling" };
  return {
    mode: "anchored",
    anchor_day: g.anchorDay ?? 1,
    anchor_months: [...(g.anchorMonths ?? [])].sort((a, b) => a - b),
    cutoff_days: g.cutoffDays ?? 0,
    pre_anchor_behavior: g.preAnchorBehavior ?? "NEXT",
    ship_day: g.shipDay ?? null,
    label: g.scheduleLabel ?? "",
  };
}

export function planJson(g: SellingPlanGroup): PlanJson {
  return {
    selling_plan_group_id: g.groupGid,
    name: g.name,
    status: g.status === "ACTIVE" ? "active" : "archived",
    cadence: { label: g.cadenceLabel, interval: g.scheduleMode === "ANCHORED" ? "MONTH" : g.interval, interval_count: g.intervalCount },
    billing: { label: g.billingLabel },
    discount: { label: g.discountLabel },
    giftable: g.giftable,
    schedule: scheduleJson(g),
    created_at: g.createdAt.toISOString(),
    updated_at: g.updatedAt.toISOString(),
  };
}

export async function listPlans(ctx: { shopId: string; filters: PlanFilters; page: PageRequest }): Promise<PageResult<PlanJson>> {
  const rows = await prisma.sellingPlanGroup.findMany({
    where: {
      shopId: ctx.shopId,
      ...(ctx.filters.status ? { status: ctx.filters.status === "active" ? "ACTIVE" : "ARCHIVED" } : {}),
      ...afterWhere(ctx.page.after),
    },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
  });
  return toPage(rows, ctx.page.limit, planJson);
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
