-- AlterTable
ALTER TABLE "contracts" ADD COLUMN     "card_expiry_month" INTEGER,
ADD COLUMN     "card_expiry_year" INTEGER;
