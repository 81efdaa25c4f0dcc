-- CreateTable
CREATE TABLE "storefront_group_reads" (
    "shop_id" TEXT NOT NULL,
    "group_gid" TEXT NOT NULL,
    "operation_gid" TEXT NOT NULL,
    "selling_plans" JSONB NOT NULL,
    "variants" JSONB NOT NULL,

    CONSTRAINT "storefront_group_reads_pkey" PRIMARY KEY ("shop_id","group_gid")
);

-- AddForeignKey
ALTER TABLE "storefront_group_reads" ADD CONSTRAINT "storefront_group_reads_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
