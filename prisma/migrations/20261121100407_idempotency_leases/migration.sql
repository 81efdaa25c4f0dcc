-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "intent" JSONB,
ADD COLUMN     "lease_expires_at" TIMESTAMP(3);

