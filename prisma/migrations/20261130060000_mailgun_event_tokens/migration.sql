-- Mailgun event tokens already applied: a captured signed event cannot be replayed inside its
-- 15-minute window (docs/decisions/102-delivery-evidence.md). Pruned after a day by the retention sweep.
CREATE TABLE "mailgun_event_tokens" (
    "token" TEXT NOT NULL,
    "seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "mailgun_event_tokens_pkey" PRIMARY KEY ("token")
);
CREATE INDEX "mailgun_event_tokens_seen_at_idx" ON "mailgun_event_tokens"("seen_at");
