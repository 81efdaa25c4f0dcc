-- The plan from Shopify Billing, and the support override (docs/decisions/064-billing.md).
-- app_plan stays the column the API's plan gate reads: COALESCE(plan_override, billing_plan).
ALTER TABLE "shops" ADD COLUMN "billing_plan" "AppPlan" NOT NULL DEFAULT 'FREE',
ADD COLUMN "plan_override" "AppPlan";

-- Shops already on Pro got it from an operator (there was no billing before): keep it as an override.
UPDATE "shops" SET "plan_override" = 'PRO' WHERE "app_plan" = 'PRO';
