-- CreateEnum
CREATE TYPE "BoxApplicationSource" AS ENUM ('PICK', 'FALLBACK');

-- CreateEnum
CREATE TYPE "BoxApplicationStatus" AS ENUM ('APPLIED', 'REFUSED');

-- AlterTable
ALTER TABLE "bundle_box_items" ADD COLUMN     "fallback_quantity" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "max_quantity" INTEGER;

-- AlterTable
ALTER TABLE "bundles" ADD COLUMN     "sizes" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "box_applications" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "bundle_id" TEXT NOT NULL,
    "contract_gid" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "source" "BoxApplicationSource" NOT NULL,
    "status" "BoxApplicationStatus" NOT NULL,
    "items" JSONB NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "box_applications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "box_applications_shop_id_bundle_id_period_idx" ON "box_applications"("shop_id", "bundle_id", "period");

-- CreateIndex
CREATE UNIQUE INDEX "box_applications_shop_id_contract_gid_period_key" ON "box_applications"("shop_id", "contract_gid", "period");

-- AddForeignKey
ALTER TABLE "box_applications" ADD CONSTRAINT "box_applications_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
