-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "announced_revision" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "announced_status" "ContractStatus";
