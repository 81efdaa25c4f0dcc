-- AlterTable
ALTER TABLE "shops" ADD COLUMN     "iana_timezone" TEXT NOT NULL DEFAULT 'UTC';
