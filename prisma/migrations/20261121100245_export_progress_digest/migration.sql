-- AlterTable
ALTER TABLE "export_jobs" ADD COLUMN     "filter_options" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "progress_rows" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "sha256" TEXT;
