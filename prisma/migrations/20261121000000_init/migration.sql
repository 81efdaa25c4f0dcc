-- CreateEnum
CREATE TYPE "InstallState" AS ENUM ('INSTALLED', 'UNINSTALLED');

-- CreateEnum
CREATE TYPE "AppPlan" AS ENUM ('FREE', 'PRO');

-- CreateEnum
CREATE TYPE "ApiKeyKind" AS ENUM ('SECRET', 'PUBLISHABLE');

-- CreateEnum
CREATE TYPE "ContractStatus" AS ENUM ('ACTIVE', 'PAUSED', 'CANCELLED', 'EXPIRED', 'FAILED', 'STALE');

-- CreateEnum
CREATE TYPE "PlanStatus" AS ENUM ('ACTIVE', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "ScheduleMode" AS ENUM ('ROLLING', 'ANCHORED');

-- CreateEnum
CREATE TYPE "PreAnchorBehavior" AS ENUM ('NEXT', 'ASAP');

-- CreateEnum
CREATE TYPE "BundleKind" AS ENUM ('CURATED', 'BUILD_A_BOX', 'REGULAR');

-- CreateEnum
CREATE TYPE "GiftKind" AS ENUM ('PREPAID', 'RECURRING');

-- CreateEnum
CREATE TYPE "GiftStatus" AS ENUM ('PENDING', 'SENT', 'CLAIMED', 'EXPIRED', 'ENDED');

-- CreateEnum
CREATE TYPE "ExportStatus" AS ENUM ('queued', 'running', 'ready', 'failed', 'expired');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'delivered', 'failed', 'exhausted');

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN,
    "locale" TEXT,
    "collaborator" BOOLEAN,
    "emailVerified" BOOLEAN,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shops" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "install_state" "InstallState" NOT NULL DEFAULT 'INSTALLED',
    "installed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalled_at" TIMESTAMP(3),
    "app_plan" "AppPlan" NOT NULL DEFAULT 'FREE',
    "partner_development" BOOLEAN NOT NULL DEFAULT false,
    "platform_plan_paid" BOOLEAN NOT NULL DEFAULT true,
    "plan_checked_at" TIMESTAMP(3),
    "storefront_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shops_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "kind" "ApiKeyKind" NOT NULL,
    "name" TEXT NOT NULL,
    "scopes" TEXT[],
    "salt" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contracts" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "status" "ContractStatus" NOT NULL,
    "next_billing_at" TIMESTAMP(3),
    "selling_plan_gid" TEXT,
    "selling_plan_group_gid" TEXT,
    "customer_gid" TEXT NOT NULL,
    "currency_code" TEXT NOT NULL,
    "charge_amount_cents" INTEGER,
    "monthly_amount_cents" INTEGER,
    "billing_interval" TEXT,
    "billing_interval_count" INTEGER,
    "product_title" TEXT,
    "frequency_label" TEXT,
    "order_name" TEXT,
    "created_by_service" BOOLEAN NOT NULL DEFAULT true,
    "revision" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "mirrored_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contracts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contract_lines" (
    "id" TEXT NOT NULL,
    "contract_id" TEXT NOT NULL,
    "line_gid" TEXT NOT NULL,
    "product_gid" TEXT,
    "variant_gid" TEXT,
    "title" TEXT NOT NULL,
    "variant_title" TEXT,
    "quantity" INTEGER NOT NULL,
    "price_cents" INTEGER NOT NULL,
    "selling_plan_gid" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "contract_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "selling_plan_groups" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "group_gid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "PlanStatus" NOT NULL DEFAULT 'ACTIVE',
    "cadence_label" TEXT NOT NULL,
    "interval" TEXT NOT NULL,
    "interval_count" INTEGER NOT NULL,
    "billing_label" TEXT NOT NULL,
    "discount_label" TEXT NOT NULL,
    "giftable" BOOLEAN NOT NULL DEFAULT false,
    "schedule_mode" "ScheduleMode" NOT NULL DEFAULT 'ROLLING',
    "anchor_day" INTEGER,
    "anchor_months" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "cutoff_days" INTEGER,
    "pre_anchor_behavior" "PreAnchorBehavior",
    "ship_day" INTEGER,
    "schedule_label" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "selling_plan_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "selling_plans" (
    "id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "selling_plan_gid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "selling_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bundles" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "kind" "BundleKind" NOT NULL,
    "selection_cutoff_days" INTEGER NOT NULL DEFAULT 3,
    "box_size_min" INTEGER,
    "box_size_max" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bundles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bundle_boxes" (
    "id" TEXT NOT NULL,
    "bundle_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL DEFAULT false,
    "published_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bundle_boxes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bundle_box_items" (
    "id" TEXT NOT NULL,
    "box_id" TEXT NOT NULL,
    "variant_gid" TEXT NOT NULL,
    "product_title" TEXT NOT NULL,
    "variant_title" TEXT,
    "image_url" TEXT,
    "price_cents" INTEGER NOT NULL,
    "quantity" INTEGER,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "bundle_box_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "box_selections" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "items" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "box_selections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mix_match_plans" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "cart_group_id" TEXT NOT NULL,
    "price_cents" INTEGER NOT NULL,
    "min_items" INTEGER NOT NULL,
    "max_items" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mix_match_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mix_match_categories" (
    "id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "mix_match_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mix_match_entries" (
    "id" TEXT NOT NULL,
    "category_id" TEXT NOT NULL,
    "variant_gid" TEXT NOT NULL,
    "product_title" TEXT NOT NULL,
    "variant_title" TEXT,
    "image_url" TEXT,
    "price_cents" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "mix_match_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gifts" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "contract_id" TEXT,
    "kind" "GiftKind" NOT NULL,
    "status" "GiftStatus" NOT NULL DEFAULT 'PENDING',
    "gifter_name" TEXT,
    "gifter_email" TEXT,
    "recipient_name" TEXT,
    "recipient_email" TEXT,
    "message" TEXT,
    "claim_token_hash" TEXT,
    "prepaid_charges" INTEGER,
    "charges_run" INTEGER NOT NULL DEFAULT 0,
    "send_at" TIMESTAMP(3),
    "sent_at" TIMESTAMP(3),
    "claimed_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gifts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "winback_campaigns" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "offer_label" TEXT NOT NULL,
    "discount_percent" INTEGER,
    "delay_days" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "winback_campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "winback_sends" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "customer_gid" TEXT NOT NULL,
    "sent_at" TIMESTAMP(3) NOT NULL,
    "reactivated" BOOLEAN NOT NULL DEFAULT false,
    "reactivated_at" TIMESTAMP(3),
    "recovered_amount_cents" INTEGER NOT NULL DEFAULT 0,
    "currency_code" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "winback_sends_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_log" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "customer_gid" TEXT NOT NULL,
    "contract_gid" TEXT,
    "event" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_preferences" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "customer_gid" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cancel_reasons" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "customer_gid" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cancel_reasons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "save_events" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "customer_gid" TEXT NOT NULL,
    "offer_type" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "preserved_revenue_cents" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "save_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_configs" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "reschedule_max_months" INTEGER NOT NULL DEFAULT 3,
    "offer_pause" BOOLEAN NOT NULL DEFAULT true,
    "offer_skip" BOOLEAN NOT NULL DEFAULT true,
    "show_reason_survey" BOOLEAN NOT NULL DEFAULT true,
    "cancel_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "hidden_actions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "allowed_origins" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "portal_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_headers" JSONB,
    "response_body" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "export_jobs" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "status" "ExportStatus" NOT NULL DEFAULT 'queued',
    "active_slot" TEXT DEFAULT 'active',
    "row_count" INTEGER,
    "byte_size" BIGINT,
    "storage_key" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "ready_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "export_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret_ciphertext" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "consecutive_exhausted" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "source_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "response_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "next_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbound_webhooks" (
    "webhook_id" TEXT NOT NULL,
    "shop_domain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMP(3),

    CONSTRAINT "inbound_webhooks_pkey" PRIMARY KEY ("webhook_id")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "shops_domain_key" ON "shops"("domain");

-- CreateIndex
CREATE INDEX "api_keys_shop_id_created_at_id_idx" ON "api_keys"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "contracts_shop_id_created_at_id_idx" ON "contracts"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "contracts_shop_id_status_created_at_id_idx" ON "contracts"("shop_id", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "contracts_shop_id_selling_plan_group_gid_created_at_id_idx" ON "contracts"("shop_id", "selling_plan_group_gid", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "contracts_shop_id_customer_gid_created_at_id_idx" ON "contracts"("shop_id", "customer_gid", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "contracts_shop_id_updated_at_idx" ON "contracts"("shop_id", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "contracts_shop_id_contract_gid_key" ON "contracts"("shop_id", "contract_gid");

-- CreateIndex
CREATE UNIQUE INDEX "contract_lines_contract_id_line_gid_key" ON "contract_lines"("contract_id", "line_gid");

-- CreateIndex
CREATE INDEX "selling_plan_groups_shop_id_created_at_id_idx" ON "selling_plan_groups"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "selling_plan_groups_shop_id_group_gid_key" ON "selling_plan_groups"("shop_id", "group_gid");

-- CreateIndex
CREATE INDEX "selling_plans_selling_plan_gid_idx" ON "selling_plans"("selling_plan_gid");

-- CreateIndex
CREATE UNIQUE INDEX "selling_plans_group_id_selling_plan_gid_key" ON "selling_plans"("group_id", "selling_plan_gid");

-- CreateIndex
CREATE INDEX "bundles_shop_id_created_at_id_idx" ON "bundles"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "bundle_boxes_bundle_id_period_key" ON "bundle_boxes"("bundle_id", "period");

-- CreateIndex
CREATE UNIQUE INDEX "box_selections_shop_id_contract_gid_period_key" ON "box_selections"("shop_id", "contract_gid", "period");

-- CreateIndex
CREATE INDEX "mix_match_plans_shop_id_created_at_id_idx" ON "mix_match_plans"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "gifts_contract_id_key" ON "gifts"("contract_id");

-- CreateIndex
CREATE INDEX "gifts_shop_id_created_at_id_idx" ON "gifts"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "gifts_shop_id_status_created_at_id_idx" ON "gifts"("shop_id", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "winback_campaigns_shop_id_created_at_id_idx" ON "winback_campaigns"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "winback_sends_campaign_id_created_at_id_idx" ON "winback_sends"("campaign_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "winback_sends_shop_id_created_at_id_idx" ON "winback_sends"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notification_log_shop_id_created_at_id_idx" ON "notification_log"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notification_log_shop_id_customer_gid_created_at_id_idx" ON "notification_log"("shop_id", "customer_gid", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "notification_preferences_shop_id_customer_gid_key" ON "notification_preferences"("shop_id", "customer_gid");

-- CreateIndex
CREATE INDEX "cancel_reasons_shop_id_created_at_id_idx" ON "cancel_reasons"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "save_events_shop_id_created_at_id_idx" ON "save_events"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "portal_configs_shop_id_key" ON "portal_configs"("shop_id");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_records_shop_id_key_key" ON "idempotency_records"("shop_id", "key");

-- CreateIndex
CREATE INDEX "export_jobs_shop_id_created_at_id_idx" ON "export_jobs"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "export_jobs_shop_id_active_slot_key" ON "export_jobs"("shop_id", "active_slot");

-- CreateIndex
CREATE INDEX "webhook_endpoints_shop_id_created_at_id_idx" ON "webhook_endpoints"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "events_source_key_key" ON "events"("source_key");

-- CreateIndex
CREATE INDEX "events_shop_id_created_at_id_idx" ON "events"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_shop_id_created_at_id_idx" ON "webhook_deliveries"("shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");

-- CreateIndex
CREATE INDEX "inbound_webhooks_received_at_idx" ON "inbound_webhooks"("received_at");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contract_lines" ADD CONSTRAINT "contract_lines_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "selling_plan_groups" ADD CONSTRAINT "selling_plan_groups_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "selling_plans" ADD CONSTRAINT "selling_plans_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "selling_plan_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bundles" ADD CONSTRAINT "bundles_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bundles" ADD CONSTRAINT "bundles_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "selling_plan_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bundle_boxes" ADD CONSTRAINT "bundle_boxes_bundle_id_fkey" FOREIGN KEY ("bundle_id") REFERENCES "bundles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bundle_box_items" ADD CONSTRAINT "bundle_box_items_box_id_fkey" FOREIGN KEY ("box_id") REFERENCES "bundle_boxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "box_selections" ADD CONSTRAINT "box_selections_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mix_match_plans" ADD CONSTRAINT "mix_match_plans_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mix_match_plans" ADD CONSTRAINT "mix_match_plans_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "selling_plan_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mix_match_categories" ADD CONSTRAINT "mix_match_categories_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "mix_match_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mix_match_entries" ADD CONSTRAINT "mix_match_entries_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "mix_match_categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_contract_id_fkey" FOREIGN KEY ("contract_id") REFERENCES "contracts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "winback_campaigns" ADD CONSTRAINT "winback_campaigns_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "winback_sends" ADD CONSTRAINT "winback_sends_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "winback_sends" ADD CONSTRAINT "winback_sends_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "winback_campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_log" ADD CONSTRAINT "notification_log_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cancel_reasons" ADD CONSTRAINT "cancel_reasons_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "save_events" ADD CONSTRAINT "save_events_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_configs" ADD CONSTRAINT "portal_configs_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
