// Billing outcomes (docs/decisions/080, 081): the subscription_billing_attempts/success, /failure
// and /challenged webhooks, stored and queued like every inbound webhook (decision 051), land
// here. An attempt settles once (a conditional update from PENDING), and in the same transaction:
//   success    → the cycle is PAID, the mirror takes the platform's contract (its next billing
//                date moved by Shopify), subscription.renewed (attempt 1) or
//                subscription.payment_recovered (a dunning retry) is published, and a prepaid
//                gift counts the charge (gift.ended after the last one);
//   failure,
//   challenged → subscription.payment_failed with the next retry from the shop's policy (the
//                cycle enters DUNNING), or none left: the cycle FAILED and, after the commit, the
//                policy's final action (pause or cancel) is asked of Shopify. The contract
//                webhook that follows announces subscription.paused/.cancelled (decision 005).
// Event source keys are billing-attempt:<gid>:<outcome>, so a replay publishes nothing new.
import { recordRenewalDrift } from "../subscriptions/schedule-drift.server";
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { isPlatformError, platformFor } from "../../platform/index.server";
import type { PlatformContract } from "../../platform/port";
import { reconcileContract, upsertContract } from "../subscriptions/mirror.server";
import { money } from "../shared/money.server";
import { dispatchDeliveries } from "../outbound-webhooks/jobs.server";
import { publishEvent, type Published } from "../outbound-webhooks/publish.server";
import { billingPolicy, retryDueAt } from "./policy.server";
import { dispatchMail, queueMail, type Queued } from "../notifications/outbox.server";
import { contractVars, longDate } from "../notifications/vars.server";
import { recountRecovered } from "../retention/winback-attribution.server";

type Tx = Prisma.TransactionClient;

export const BILLING_ATTEMPT_TOPICS = [
  "subscription_billing_attempts/success",
  "subscription_billing_attempts/failure",
  "subscription_billing_attempts/challenged",
] as const;
export type BillingAttemptTopic = (typeof BILLING_ATTEMPT_TOPICS)[number];

/** What the engine needs from a billing-attempt webhook (its payload, read once at the door). */
export interface BillingOutcome {
  shopDomain: string;
  webhookId: string;
  topic: BillingAttemptTopic;
  attemptGid: string | null;
  idempotencyKey: string;
  contractGid: string;
  orderGid: string | null;
  /** Shopify's SubscriptionBillingAttemptErrorCode, upper-cased; null on success. */
  errorCode: string | null;
}

export type OutcomeResult = "renewed" | "recovered" | "failed" | "dunning_ended" | "duplicate" | "ignored";

export async function handleBillingOutcome(o: BillingOutcome): Promise<OutcomeResult> {
  const shop = await prisma.shop.findUnique({ where: { domain: o.shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return "ignored";
  const attempt = await prisma.billingAttempt.findUnique({
    where: { shopId_idempotencyKey: { shopId: shop.id, idempotencyKey: o.idempotencyKey } },
    include: {
      cycle: {
        include: {
          contract: {
            select: { id: true, contractGid: true, customerGid: true, productTitle: true, nextBillingAt: true, chargeAmountCents: true, currencyCode: true },
          },
        },
      },
    },
  });
  // An attempt this engine did not make (a merchant's manual charge): nothing of ours to move.
  if (!attempt || attempt.cycle.contractGid !== o.contractGid) {
    log.info("billing outcome for an attempt the engine did not make", { topic: o.topic, shop: o.shopDomain });
    return "ignored";
  }
  const attemptGid = o.attemptGid ?? attempt.attemptGid ?? `idempotency:${o.idempotencyKey}`;
  const success = o.topic === "subscription_billing_attempts/success";

  // The platform's contract after the charge (its next billing date), read before the transaction.
  const platformContract: PlatformContract | null = success ? await (await platformFor(o.shopDomain, "billing")).getContract(o.contractGid) : null;
  const policy = success ? null : await billingPolicy(shop.id);

  const mail: (Queued | null)[] = [];
  const settled = await prisma.$transaction(async (tx) => {
    const moved = await tx.billingAttempt.updateMany({
      // A challenged attempt may still succeed (the customer authenticated); nothing else moves twice.
      where: { id: attempt.id, status: success ? { in: ["PENDING", "CHALLENGED"] } : "PENDING" },
      data: {
        status: success ? "SUCCEEDED" : o.topic === "subscription_billing_attempts/challenged" ? "CHALLENGED" : "FAILED",
        attemptGid,
        orderGid: o.orderGid,
        errorCode: o.errorCode,
        completedAt: new Date(),
      },
    });
    if (moved.count === 0) return { result: "duplicate" as const, published: [] as Published[] };
    const contract = attempt.cycle.contract;
    const amount = money(attempt.amountMinor, attempt.currencyCode);
    const base = { contract_id: contract.contractGid, customer_id: contract.customerGid, billing_attempt_id: attemptGid };
    const announced: Published[] = [];

    if (success) {
      await tx.billingCycle.update({ where: { id: attempt.cycleId }, data: { status: "PAID", nextRetryAt: null } });
      if (platformContract) {
        await upsertContract(tx, shop.id, platformContract);
        // The date Shopify moved it to, against the schedule engine's (docs/decisions/112-schedule-drift.md).
        await recordRenewalDrift(tx, shop.id, platformContract, attempt.cycle.cycleAt);
      }
      const recovered = attempt.number > 1;
      const published = recovered
        ? await publishEvent(tx, {
            shopId: shop.id,
            type: "subscription.payment_recovered",
            sourceKey: `billing-attempt:${attemptGid}:recovered`,
            data: { ...base, order_id: o.orderGid, amount },
          })
        : await publishEvent(tx, {
            shopId: shop.id,
            type: "subscription.renewed",
            sourceKey: `billing-attempt:${attemptGid}:renewed`,
            data: {
              ...base,
              order_id: o.orderGid,
              amount,
              next_billing_at: platformContract?.nextBillingDate ? new Date(platformContract.nextBillingDate).toISOString() : null,
            },
          });
      announced.push(published, ...(await countGiftCharge(tx, shop.id, contract.id, contract.contractGid)));
      // A win-back's new contract: its send's recovered_amount counts this charge (docs/decisions/117).
      await recountRecovered(shop.id, contract.contractGid, tx);
      return { result: recovered ? ("recovered" as const) : ("renewed" as const), published: announced };
    }

    // The n-th attempt failed: retry n of the policy is next, if the policy has one.
    const nextRetryAt = retryDueAt(policy!, attempt.cycle.cycleAt, attempt.number);
    await tx.billingCycle.update({
      where: { id: attempt.cycleId },
      data: { status: nextRetryAt ? "DUNNING" : "FAILED", nextRetryAt, lastErrorCode: o.errorCode },
    });
    const published = await publishEvent(tx, {
      shopId: shop.id,
      type: "subscription.payment_failed",
      sourceKey: `billing-attempt:${attemptGid}:failed`,
      data: { ...base, error_code: o.errorCode, amount, next_retry_at: nextRetryAt?.toISOString() ?? null },
    });
    announced.push(published);
    // The customer's e-mail (essential: never gated by preferences), in the same transaction.
    mail.push(
      await queueMail(tx, {
        shopId: shop.id,
        kind: nextRetryAt ? "payment_failed" : "payment_failed_final",
        customerGid: contract.customerGid,
        contractGid: contract.contractGid,
        cycle: `${attempt.cycle.cycleAt.toISOString()}#${attempt.number}`,
        vars: {
          ...contractVars(o.shopDomain, {
            ...contract,
            chargeAmountCents: attempt.amountMinor === null ? null : Number(attempt.amountMinor),
            currencyCode: attempt.currencyCode,
          }),
          ...(nextRetryAt ? { retry_date: longDate(nextRetryAt) } : {}),
        },
      }),
    );
    return { result: nextRetryAt ? ("failed" as const) : ("dunning_ended" as const), published: announced };
  });
  await dispatchDeliveries(settled.published);
  await dispatchMail(mail);
  if (mail.some(Boolean)) await askForCardUpdate(o.shopDomain, o.contractGid);
  // Whether this delivery or an earlier one ended dunning, a final action still owed is done now.
  await applyFinalAction(o.shopDomain, attempt.cycleId);
  return settled.result;
}

/** Shopify's own secure card-update e-mail (customerPaymentMethodSendUpdateEmail), best effort. */
async function askForCardUpdate(shopDomain: string, contractGid: string): Promise<void> {
  try {
    const platform = await platformFor(shopDomain, "billing");
    const method = await platform.getPaymentMethod(contractGid);
    if (method) await platform.sendPaymentMethodUpdateEmail(method.id);
  } catch (err) {
    log.warn("could not ask the platform to send the payment-method update e-mail", { err, contract: contractGid });
  }
}

/** A prepaid gift counts each successful charge; the last one ends it (gift.ended). */
async function countGiftCharge(tx: Tx, shopId: string, contractId: string, contractGid: string): Promise<Published[]> {
  const gift = await tx.gift.findUnique({ where: { contractId }, select: { id: true, kind: true, status: true, prepaidCharges: true, chargesRun: true } });
  if (!gift || gift.kind !== "PREPAID" || gift.status === "ENDED") return [];
  const chargesRun = gift.chargesRun + 1;
  const ended = gift.prepaidCharges !== null && chargesRun >= gift.prepaidCharges;
  await tx.gift.update({ where: { id: gift.id }, data: { chargesRun, ...(ended ? { status: "ENDED", endedAt: new Date(), claimTokenHash: null } : {}) } });
  if (!ended) return [];
  const published = await publishEvent(tx, {
    shopId,
    type: "gift.ended",
    sourceKey: `gift:${gift.id}:ended`,
    data: { gift_id: gift.id, contract_id: contractGid, ended_at: new Date().toISOString() },
  });
  return [published];
}

/**
 * The policy's final action for a cycle whose last retry failed: pause or cancel the contract on
 * Shopify, once (final_action_at). Already paused/cancelled there counts as done.
 */
export async function applyFinalAction(shopDomain: string, cycleId: string): Promise<void> {
  const cycle = await prisma.billingCycle.findUnique({
    where: { id: cycleId },
    select: { id: true, shopId: true, status: true, finalActionAt: true, contractGid: true },
  });
  if (!cycle || cycle.status !== "FAILED" || cycle.finalActionAt) return;
  const { finalAction } = await billingPolicy(cycle.shopId);
  const platform = await platformFor(shopDomain, "billing");
  try {
    if (finalAction === "CANCEL") await platform.cancelContract(cycle.contractGid);
    else await platform.pauseContract(cycle.contractGid);
  } catch (err) {
    // CONTRACT_TERMINATED and the like: there is nothing left to stop. Anything else is retried.
    if (!isPlatformError(err) || err.kind !== "state_conflict") throw err;
  }
  await prisma.billingCycle.update({ where: { id: cycle.id }, data: { finalActionAt: new Date() } });
  await reconcileContract(shopDomain, cycle.contractGid);
}
