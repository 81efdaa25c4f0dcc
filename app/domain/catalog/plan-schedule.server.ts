// Schedule previews (/docs#tag/Admin-API:-Plans): for a plan and a sign-up day, the first charge, the first
// shipment and the charges after it, as the schedule engine computes them in the shop's time
// zone (docs/decisions/110-schedule-engine.md). The Admin API asks by group, the Storefront API by
// the child selling plan a cart line carries; both answer the same object, shaped by the surface.
import type { SellingPlanGroup } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { chargeSequence, localDate, shipmentDate, signupDates, type CivilDate, type Interval, type Schedule } from "../shared/schedule";
import { anchoredScheduleOf } from "./selling-plans.server";

export const PREVIEW_DEFAULT_COUNT = 6;
export const PREVIEW_MAX_COUNT = 24;

/** A preview (the surfaces shape it: app/surfaces/schedule-preview.ts). Days on the shop's calendar. */
export interface SchedulePreview {
  group: SellingPlanGroup;
  timeZone: string;
  start: CivilDate;
  firstCharge: CivilDate;
  firstShipment: CivilDate;
  charges: { charge: CivilDate; ship: CivilDate }[];
}

/** The engine's schedule of a mirrored group: its anchored schedule, or its rolling cadence. */
export function groupSchedule(g: SellingPlanGroup): Schedule {
  const anchored = anchoredScheduleOf(g);
  if (anchored) return anchored;
  const interval = (["DAY", "WEEK", "MONTH", "YEAR"].includes(g.interval) ? g.interval : "MONTH") as Interval;
  return { mode: "rolling", interval, intervalCount: Math.max(1, g.intervalCount) };
}

/** The preview of `g` for a sign-up on `start` (the shop's today when absent). */
export function previewOf(g: SellingPlanGroup, timeZone: string, start: CivilDate | undefined, count: number, now = new Date()): SchedulePreview {
  const schedule = groupSchedule(g);
  const signup = start ?? localDate(now, timeZone);
  const first = signupDates(signup, schedule);
  return {
    group: g,
    timeZone,
    start: signup,
    firstCharge: first.firstCharge,
    firstShipment: first.firstShipment,
    // The first charge of an ASAP sign-up ships at once (or with the next batch inside the cutoff).
    charges: chargeSequence(signup, schedule, count).map((c, i) => ({ charge: c, ship: i === 0 ? first.firstShipment : shipmentDate(c, schedule) })),
  };
}

async function timeZoneOf(shopId: string): Promise<string> {
  const shop = await prisma.shop.findUnique({ where: { id: shopId }, select: { ianaTimezone: true } });
  return shop?.ianaTimezone ?? "UTC";
}

export interface PreviewOptions {
  shopId: string;
  start?: CivilDate;
  count: number;
}

/** GET /api/admin/v1/plans/{id}/schedule: the group's preview; another shop's group is not_found. */
export async function planSchedulePreview(ctx: PreviewOptions & { groupGid: string }): Promise<SchedulePreview> {
  const g = await prisma.sellingPlanGroup.findUnique({ where: { shopId_groupGid: { shopId: ctx.shopId, groupGid: ctx.groupGid } } });
  if (!g) throw new ApiError("not_found", `No plan ${ctx.groupGid}`);
  return previewOf(g, await timeZoneOf(ctx.shopId), ctx.start, ctx.count);
}

/** GET /api/storefront/v1/selling-plans/{id}/schedule: the preview of the child plan's group. */
export async function sellingPlanSchedulePreview(ctx: PreviewOptions & { sellingPlanGid: string }): Promise<SchedulePreview> {
  const plan = await prisma.sellingPlan.findFirst({
    where: { sellingPlanGid: ctx.sellingPlanGid, group: { shopId: ctx.shopId, status: "ACTIVE" } },
    include: { group: true },
  });
  if (!plan) throw new ApiError("not_found", `No selling plan ${ctx.sellingPlanGid}`);
  return previewOf(plan.group, await timeZoneOf(ctx.shopId), ctx.start, ctx.count);
}
