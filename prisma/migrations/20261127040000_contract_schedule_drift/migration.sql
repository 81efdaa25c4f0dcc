-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "schedule_drift" JSONB;
