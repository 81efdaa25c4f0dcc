// The Pro entitlement from Shopify Billing (docs/decisions/064-billing.md). The app asks
// Shopify for a recurring charge (appSubscriptionCreate), the merchant approves it on Shopify's
// confirmation page, and the app learns the outcome by re-reading
// currentAppInstallation.activeSubscriptions (on the app_subscriptions/update webhook and when
// the Plan page opens). shop.plan.partnerDevelopment is read at the same time: a development
// store passes the plan gate only once it is on a paid Shopify plan (docs/decisions/064-billing.md
// rule 4), and Shopify accepts only test charges from it.
// A support override (CLI `shops plan`, the demo seed; setAppPlan in shop-lifecycle.server.ts)
// pins the plan whatever Billing says until cleared; the gate reads
// shops.app_plan = COALESCE(plan_override, billing_plan).
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { platformFor } from "../../platform/index.server";
import type { AppCharge } from "../../platform/port";
import { planAllowsApi } from "./shops.server";

export type AppPlan = "FREE" | "PRO";

/** What Pro costs; the one place the price is written. */
export const PRO_PLAN = { name: "Pro", amount: "49.00", currencyCode: "USD", interval: "EVERY_30_DAYS" } as const;

/** Where Shopify sends the merchant back after the confirmation page: the Plan page inside admin. */
export function billingReturnUrl(shopDomain: string): string {
  const store = shopDomain.replace(/\.myshopify\.com$/, "");
  return `https://admin.shopify.com/store/${store}/apps/${env().SHOPIFY_API_KEY}/app/plan`;
}

export interface PlanSync {
  billingPlan: AppPlan;
  partnerDevelopment: boolean;
  charge: AppCharge | null;
}

/** Re-reads the plan facts from Shopify and stores them; the gate sees them on the next request. */
export async function syncPlanFromBilling(shopDomain: string): Promise<PlanSync> {
  const port = await platformFor(shopDomain);
  const [shop, charges] = await Promise.all([port.getShop(), port.activeAppCharges()]);
  const charge = charges.find((c) => c.name === PRO_PLAN.name && c.status === "ACTIVE") ?? null;
  const billingPlan: AppPlan = charge ? "PRO" : "FREE";
  await prisma.$executeRaw`
    UPDATE shops SET billing_plan = ${billingPlan}::"AppPlan",
                     app_plan = COALESCE(plan_override, ${billingPlan}::"AppPlan"),
                     partner_development = ${shop.partnerDevelopment},
                     platform_plan_paid = ${!shop.partnerDevelopment},
                     iana_timezone = ${shop.ianaTimezone},
                     plan_checked_at = now(), updated_at = now()
     WHERE domain = ${shopDomain}`;
  return { billingPlan, partnerDevelopment: shop.partnerDevelopment, charge };
}

/** Asks Shopify Billing for the Pro charge; the merchant approves it at the returned URL. */
export async function requestProPlan(shopDomain: string): Promise<{ confirmationUrl: string }> {
  const port = await platformFor(shopDomain);
  const shop = await port.getShop();
  const created = await port.createAppCharge({ ...PRO_PLAN, returnUrl: billingReturnUrl(shopDomain), test: shop.partnerDevelopment });
  return { confirmationUrl: created.confirmationUrl };
}

/** Cancels the Pro charge at Shopify (downgrade to Free), then re-reads the plan. */
export async function cancelProPlan(shopDomain: string): Promise<PlanSync> {
  const port = await platformFor(shopDomain);
  for (const c of await port.activeAppCharges()) if (c.name === PRO_PLAN.name) await port.cancelAppCharge(c.id);
  return syncPlanFromBilling(shopDomain);
}

export interface PlanView {
  appPlan: AppPlan;
  billingPlan: AppPlan;
  override: AppPlan | null;
  partnerDevelopment: boolean;
  platformPlanPaid: boolean;
  apiEnabled: boolean;
  checkedAt: string | null;
  price: typeof PRO_PLAN;
}

export async function planView(shopId: string): Promise<PlanView> {
  const s = await prisma.shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { appPlan: true, billingPlan: true, planOverride: true, partnerDevelopment: true, platformPlanPaid: true, planCheckedAt: true },
  });
  return {
    appPlan: s.appPlan,
    billingPlan: s.billingPlan,
    override: s.planOverride,
    partnerDevelopment: s.partnerDevelopment,
    platformPlanPaid: s.platformPlanPaid,
    apiEnabled: planAllowsApi(s),
    checkedAt: s.planCheckedAt?.toISOString() ?? null,
    price: PRO_PLAN,
  };
}
