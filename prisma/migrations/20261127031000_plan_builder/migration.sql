-- AlterTable
ALTER TABLE "selling_plan_groups" ADD COLUMN     "built_in_app" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "merchant_code" TEXT,
ADD COLUMN     "product_gids" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "variant_gids" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "selling_plans" ADD COLUMN     "settings" JSONB;
