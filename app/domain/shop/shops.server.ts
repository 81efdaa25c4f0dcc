// Shop-level facts the API kernel needs: the plan gate and the per-shop portal settings.
import type { PortalConfig } from "@prisma/client";
import { prisma } from "../../db.server";

export interface PlanFacts {
  appPlan: "FREE" | "PRO";
  partnerDevelopment: boolean;
  platformPlanPaid: boolean;
}

/**
 * The Developer API entitlement (/docs#section/Conventions; docs/decisions/064-billing.md): Pro, and for a partner
 * development store also a paid platform plan. Pure over the Shop row, which the key lookup
 * joins on every request, so the gate is exactly as fresh as the row (the billing sync keeps the
 * row within the documented 60 s; no extra in-process cache is needed or kept).
 */
export function planAllowsApi(shop: PlanFacts): boolean {
  if (shop.appPlan !== "PRO") return false;
  if (shop.partnerDevelopment && !shop.platformPlanPaid) return false;
  return true;
}

export const PORTAL_ACTIONS = ["skip", "pause", "cancel", "edit_address", "edit_quantity", "swap_product", "change_date"] as const;

export interface PortalConfigView {
  reschedule_max_months: number;
  cancel_flow: { offer_pause: boolean; offer_skip: boolean; show_reason_survey: boolean; reasons: string[] };
  portal_actions: Record<`hide_${(typeof PORTAL_ACTIONS)[number]}`, boolean>;
}

/** The Customer API's GET /config (/docs#tag/Customer-API:-Portal): the shop's PortalConfig, or the defaults when it has none. */
export async function portalConfigFor(shopId: string): Promise<PortalConfigView> {
  return portalConfigView(await prisma.portalConfig.findUnique({ where: { shopId } }));
}

/** The view of a PortalConfig row, or the defaults when the shop has none. */
export function portalConfigView(row: PortalConfig | null): PortalConfigView {
  const hidden = new Set(row?.hiddenActions ?? []);
  const actions = Object.fromEntries(PORTAL_ACTIONS.map((a) => [`hide_${a}`, hidden.has(a)])) as PortalConfigView["portal_actions"];
  return {
    reschedule_max_months: row?.rescheduleMaxMonths ?? 3,
    cancel_flow: {
      offer_pause: row?.offerPause ?? true,
      offer_skip: row?.offerSkip ?? true,
      show_reason_survey: row?.showReasonSurvey ?? true,
      reasons: row?.cancelReasons ?? [],
    },
    portal_actions: actions,
  };
}
