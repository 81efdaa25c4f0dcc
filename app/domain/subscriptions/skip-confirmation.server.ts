// The skip confirmation e-mail (docs/email.md). A skip changes no status, so no contract webhook
// announces it the way pause, resume and cancel are confirmed. Two causes queue it:
//   - the app's own skip (Admin API, admin page, hosted portal: writes.server.ts), which moves the
//     next charge date;
//   - a skip made at Shopify, e.g. by the shopper's own token in a custom portal
//     (subscriptionBillingCycleSkip), announced by the subscription_billing_cycles/skip webhook.
// Both key the message by the skipped date, so one skip is one e-mail however often it is announced.
import { prisma } from "../../db.server";
import type { CycleSkipWebhook } from "../../infra/job-payloads";
import { queueAndDispatch } from "../notifications/outbox.server";
import { contractVars } from "../notifications/vars.server";
import { reconcileContract } from "./mirror.server";

/**
 * Queues the confirmation of the skip of `skippedDate` for a mirrored contract (false when the
 * contract is not the app's). The next charge is the mirror's unless the caller knows it better.
 */
export async function queueSkipConfirmation(
  shop: { id: string; domain: string },
  contractGid: string,
  skippedDate: Date,
  nextBillingAt?: Date,
): Promise<boolean> {
  const c = await prisma.contract.findUnique({
    where: { shopId_contractGid: { shopId: shop.id, contractGid } },
    select: { customerGid: true, productTitle: true, chargeAmountCents: true, currencyCode: true, nextBillingAt: true },
  });
  if (!c) return false;
  await queueAndDispatch({
    shopId: shop.id,
    kind: "subscription_skipped",
    customerGid: c.customerGid,
    contractGid,
    cycle: skippedDate.toISOString(),
    vars: contractVars(shop.domain, { ...c, contractGid, nextBillingAt: nextBillingAt ?? c.nextBillingAt }),
  });
  return true;
}

/**
 * The `mirror` queue's "confirm-cycle-skip" job: the mirror is refreshed first, so the message
 * names the next charge Shopify now has, then the confirmation is queued.
 */
export async function confirmShopifySkip(job: CycleSkipWebhook): Promise<void> {
  const shop = await prisma.shop.findUnique({ where: { domain: job.shopDomain }, select: { id: true, domain: true } });
  if (!shop) return;
  await reconcileContract(shop.domain, job.contractGid);
  await queueSkipConfirmation(shop, job.contractGid, new Date(job.skippedDate));
}
