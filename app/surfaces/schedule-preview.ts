// The schedule preview routes (/docs#tag/Admin-API:-Plans), one on the Admin API by plan and one on the
// Storefront API by the child selling plan: same query, same answer (docs/decisions/110-schedule-engine.md).
import { z } from "zod";
import {
  planSchedulePreview,
  sellingPlanSchedulePreview,
  PREVIEW_MAX_COUNT,
  type SchedulePreview as PreviewView,
} from "../domain/catalog/plan-schedule.server";
import { scheduleJson } from "./admin/wire";
import { civilIso } from "../domain/shared/schedule";
import { defineRoute } from "../http/route";
import { readQuery, schedulePreviewQuery } from "./read-queries";

const Day = z.string().describe("Calendar day YYYY-MM-DD in the shop's time zone");

/** A plan's schedule object as the previews and the Storefront API's plans publish it: every field optional but mode. */
export const ScheduleObject = z.object({
  mode: z.enum(["rolling", "anchored"]),
  anchor_day: z.number().int().optional(),
  anchor_months: z.array(z.number().int()).optional(),
  cutoff_days: z.number().int().optional(),
  pre_anchor_behavior: z.enum(["NEXT", "ASAP"]).optional(),
  ship_day: z.number().int().nullable().optional(),
  label: z.string().optional(),
});

export const SchedulePreview = z.strictObject({
  selling_plan_group_id: z.string(),
  time_zone: z.string().describe("The shop's IANA time zone: every date is a day on its calendar"),
  start: Day.describe("The sign-up day the preview starts from"),
  schedule: ScheduleObject.describe("The plan's schedule object, as on GET /plans"),
  first_charge: Day.describe("NEXT: the anchor the order waits for (the following one inside the cutoff); ASAP and rolling: the sign-up day"),
  first_shipment: Day,
  charges: z.array(z.strictObject({ charge_date: Day, ship_date: Day })).describe("The first `count` charges, the first charge included"),
});

/** The wire form of a preview: snake_case, days as YYYY-MM-DD. */
const previewJson = (p: PreviewView): z.input<typeof SchedulePreview> => ({
  selling_plan_group_id: p.group.groupGid,
  time_zone: p.timeZone,
  start: civilIso(p.start),
  schedule: scheduleJson(p.group),
  first_charge: civilIso(p.firstCharge),
  first_shipment: civilIso(p.firstShipment),
  charges: p.charges.map((c) => ({ charge_date: civilIso(c.charge), ship_date: civilIso(c.ship) })),
});

const previewQuery = z
  .object({
    start: z.string().optional().describe("Sign-up day YYYY-MM-DD; default: today in the shop's time zone"),
    count: z.string().optional().describe(`How many charges: 1 to ${PREVIEW_MAX_COUNT}, default 6`),
  })
  .strict();

const groupGid = z
  .string()
  .regex(/^gid:\/\/shopify\/SellingPlanGroup\/[0-9]{1,20}$/, "must be gid://shopify/SellingPlanGroup/<number>")
  .describe("selling_plan_group_id, percent-encoded")
  .meta({ example: "gid://shopify/SellingPlanGroup/3001" });

const sellingPlanId = z
  .string()
  .regex(/^(gid:\/\/shopify\/SellingPlan\/)?[1-9][0-9]{0,19}$/, "must be gid://shopify/SellingPlan/<number> or the number alone")
  .transform((v) => (v.startsWith("gid://") ? v : `gid://shopify/SellingPlan/${v}`))
  .describe("selling_plan_id (gid, percent-encoded, or the number alone, as a cart line's selling_plan)");

const DESCRIPTION =
  "The dates a sign-up on `start` gets, computed by the app's schedule engine in the shop's time zone: month ends clamp " +
  "(anchor 31 is February 28 or 29), NEXT waits for the next anchor (the following one when fewer than cutoff_days remain), " +
  "ASAP charges on the sign-up day and renews on the next anchor. Shopify bills the contract; the app checks its date against this engine.";

export const adminSchedulePreviewRoutes = [
  defineRoute({
    method: "GET",
    path: "/plans/:plan_id/schedule",
    scopes: ["read:plans"],
    params: z.object({ plan_id: groupGid }),
    query: previewQuery,
    summary: "Preview a plan's schedule: first charge, first shipment and the next charges for a sign-up day",
    description: DESCRIPTION,
    tags: ["Plans"],
    errorCodes: ["not_found"],
    response: SchedulePreview,
    handler: async (ctx) => {
      const q = readQuery(schedulePreviewQuery, ctx.query);
      return { body: previewJson(await planSchedulePreview({ shopId: ctx.shop.id, groupGid: ctx.params.plan_id, start: q.start, count: q.count })) };
    },
  }),
];

export const storefrontSchedulePreviewRoutes = [
  defineRoute({
    method: "GET",
    path: "/selling-plans/:selling_plan_id/schedule",
    scopes: ["read:plans"],
    params: z.strictObject({ selling_plan_id: sellingPlanId }),
    query: previewQuery,
    summary: "Preview a selling plan's schedule, so a storefront can say when the first box ships",
    description: DESCRIPTION,
    tags: ["Plans"],
    errorCodes: ["not_found"],
    response: SchedulePreview,
    handler: async (ctx) => {
      const q = readQuery(schedulePreviewQuery, ctx.query);
      return {
        body: previewJson(
          await sellingPlanSchedulePreview({ shopId: ctx.shop.id, sellingPlanGid: ctx.params.selling_plan_id, start: q.start, count: q.count }),
        ),
      };
    },
  }),
];
