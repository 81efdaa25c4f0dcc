-- AlterTable
ALTER TABLE "migration_imports" ADD COLUMN     "lease_token" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3);
