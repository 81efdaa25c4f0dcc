// Outcomes whose webhook never came (docs/decisions/080). Shopify announces a billing attempt's
// outcome only by webhook, and gives up on a webhook after its retries; an attempt whose outcome
// was lost that way would leave its cycle CHARGING for good: never renewed, never in dunning,
// never charged again. So each billing run reads the state of the attempts Shopify confirmed
// more than OUTCOME_OVERDUE_MS ago that are still PENDING here, and settles those Shopify has
// settled through the webhook's own handler. Its event keys are the attempt's, so a webhook that
// arrives after all moves nothing twice.
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { isPlatformError, type ShopifyPort } from "../../platform/index.server";
import { handleBillingOutcome, type BillingAttemptTopic } from "./outcomes.server";

/** Well past Shopify's first webhook retries: a late webhook is still the usual path. */
export const OUTCOME_OVERDUE_MS = 60 * 60_000;
// Read per run at most: a run must end; the rest are read by the next run.
const MAX_READS = 200;

const TOPIC: Record<"succeeded" | "failed" | "challenged", BillingAttemptTopic> = {
  succeeded: "subscription_billing_attempts/success",
  failed: "subscription_billing_attempts/failure",
  challenged: "subscription_billing_attempts/challenged",
};

/**
 * Settles the shop's overdue attempts that Shopify has settled; returns how many. Overdue is wall
 * time since the attempt was made (webhooks travel in real time), not the run's billing clock.
 */
export async function settleOverdueOutcomes(shopId: string, platform: ShopifyPort): Promise<number> {
  const overdue = await prisma.billingAttempt.findMany({
    where: { shopId, status: "PENDING", attemptGid: { not: null }, createdAt: { lte: new Date(Date.now() - OUTCOME_OVERDUE_MS) } },
    orderBy: { createdAt: "asc" },
    take: MAX_READS,
    select: { attemptGid: true, idempotencyKey: true, cycle: { select: { contractGid: true } } },
  });
  let settled = 0;
  for (const a of overdue) {
    const gid = a.attemptGid!;
    let state;
    try {
      state = await platform.getBillingAttempt(gid);
    } catch (err) {
      // Shopify unavailable: the charges of this run stand; the next run reads these again.
      if (!isPlatformError(err)) throw err;
      log.warn("billing: overdue attempts not read, Shopify unavailable", { shop: platform.shop, err });
      break;
    }
    if (!state || state.state === "pending") continue;
    await handleBillingOutcome({
      shopDomain: platform.shop,
      webhookId: `overdue:${gid}`,
      topic: TOPIC[state.state],
      attemptGid: gid,
      idempotencyKey: a.idempotencyKey,
      contractGid: a.cycle.contractGid,
      orderGid: state.orderId,
      errorCode: state.errorCode,
    });
    settled++;
  }
  if (settled) log.warn("billing: settled attempts whose outcome webhook never came", { shop: platform.shop, settled });
  return settled;
}
