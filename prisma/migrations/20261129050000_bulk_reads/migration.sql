-- CreateTable
CREATE TABLE "bulk_reads" (
    "shop_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "operation_gid" TEXT,
    "status" TEXT,
    "url" TEXT,
    "object_count" INTEGER NOT NULL DEFAULT 0,
    "lines_applied" INTEGER NOT NULL DEFAULT 0,
    "roots_applied" INTEGER NOT NULL DEFAULT 0,
    "resumes" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "bulk_reads_pkey" PRIMARY KEY ("shop_id","purpose")
);

-- AddForeignKey
ALTER TABLE "bulk_reads" ADD CONSTRAINT "bulk_reads_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
