// The merchant's portal settings (docs/decisions/113-portal-settings.md): the reschedule window,
// the cancel flow and the HIDE list, edited on the Portal settings page and read back, unchanged,
// by the Customer API's GET /config (portalConfigFor in shop/shops.server.ts reads the same row).
// The allowed origins on that row belong to the Storefront access page
// (docs/decisions/132-allowed-origins.md) and are never touched here.
import { z } from "zod";
import { prisma } from "../../db.server";
import { PORTAL_ACTIONS } from "../shop/shops.server";

export type PortalAction = (typeof PORTAL_ACTIONS)[number];

export interface PortalSettings {
  rescheduleMaxMonths: number;
  offerPause: boolean;
  offerSkip: boolean;
  showReasonSurvey: boolean;
  /** In the order the survey lists them. */
  reasons: string[];
  /** The HIDE list: every action not named here is offered. */
  hiddenActions: PortalAction[];
}

/** What a shop without a row gets; the same defaults GET /config answers. */
export const DEFAULT_PORTAL_SETTINGS: Readonly<PortalSettings> = Object.freeze({
  rescheduleMaxMonths: 3,
  offerPause: true,
  offerSkip: true,
  showReasonSurvey: true,
  reasons: [],
  hiddenActions: [],
});

/** Bounds the page states in its help text and the domain enforces. */
export const PORTAL_LIMITS = { minMonths: 1, maxMonths: 24, maxReasons: 20, maxReasonLength: 80 } as const;

export const PortalSettingsSchema = z.object({
  rescheduleMaxMonths: z
    .number({ error: "enter a whole number of months" })
    .int("enter a whole number of months")
    .min(PORTAL_LIMITS.minMonths, `at least ${PORTAL_LIMITS.minMonths} month`)
    .max(PORTAL_LIMITS.maxMonths, `at most ${PORTAL_LIMITS.maxMonths} months`),
  offerPause: z.boolean(),
  offerSkip: z.boolean(),
  showReasonSurvey: z.boolean(),
  reasons: z
    .array(z.string().trim().min(1).max(PORTAL_LIMITS.maxReasonLength, `a reason is at most ${PORTAL_LIMITS.maxReasonLength} characters`))
    .max(PORTAL_LIMITS.maxReasons, `at most ${PORTAL_LIMITS.maxReasons} reasons`)
    .refine((r) => new Set(r.map((x) => x.toLowerCase())).size === r.length, "each reason once"),
  hiddenActions: z.array(z.enum(PORTAL_ACTIONS)).transform((a) => PORTAL_ACTIONS.filter((x) => a.includes(x))),
});

export async function portalSettings(shopId: string): Promise<PortalSettings> {
  const row = await prisma.portalConfig.findUnique({ where: { shopId } });
  if (!row) return { ...DEFAULT_PORTAL_SETTINGS, reasons: [], hiddenActions: [] };
  return {
    rescheduleMaxMonths: row.rescheduleMaxMonths,
    offerPause: row.offerPause,
    offerSkip: row.offerSkip,
    showReasonSurvey: row.showReasonSurvey,
    reasons: row.cancelReasons,
    hiddenActions: PORTAL_ACTIONS.filter((a) => row.hiddenActions.includes(a)),
  };
}

export type SaveResult = { ok: true; settings: PortalSettings } | { ok: false; errors: Record<string, string> };

/** Validates and stores the whole settings object (not a patch); a refusal names its fields. */
export async function savePortalSettings(shopId: string, input: unknown): Promise<SaveResult> {
  const parsed = PortalSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
    return { ok: false, errors };
  }
  const s = parsed.data;
  const data = {
    rescheduleMaxMonths: s.rescheduleMaxMonths,
    offerPause: s.offerPause,
    offerSkip: s.offerSkip,
    showReasonSurvey: s.showReasonSurvey,
    cancelReasons: s.reasons,
    hiddenActions: s.hiddenActions,
  };
  await prisma.portalConfig.upsert({ where: { shopId }, create: { shopId, ...data }, update: data });
  return { ok: true, settings: { ...s } };
}
