-- CreateTable
CREATE TABLE "storefront_metafields" (
    "shop_id" TEXT NOT NULL,
    "owner_gid" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "written_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storefront_metafields_pkey" PRIMARY KEY ("shop_id","owner_gid","key")
);

-- AddForeignKey
ALTER TABLE "storefront_metafields" ADD CONSTRAINT "storefront_metafields_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
