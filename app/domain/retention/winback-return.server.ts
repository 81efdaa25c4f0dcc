// The come-back link of a win-back e-mail (docs/decisions/116-winback-events.md, 117): a GET shows
// what the customer is about to restart (it changes nothing), the POST acts once. Shopify cannot
// reactivate a cancelled contract, so coming back is a new contract cloned from the cancelled one
// (subscriptionContractAtomicCreate: same lines and plan, policies, payment method and shipping
// address), its id recorded on the send beside the old one. The clone carries the send's id as a
// contract attribute, so the mirror's subscription.created can name the win-back, and a POST retried
// after a crash between Shopify's answer and the ledger finds the clone instead of making another.
import { prisma } from "../../db.server";
import { verifyWinbackReturn } from "../notifications/links.server";
import { platformFor } from "../../platform/index.server";
import type { NewContract } from "../../platform/port";

const DAY = 86_400_000;
/** A claim older than this is a sender that stopped: the next POST settles it (docs/decisions/117). */
const CLAIM_LEASE_MS = 5 * 60_000;
export const WINBACK_SEND_ATTRIBUTE = "_winback_send";

export type ReturnState = "ready" | "done" | "expired" | "invalid";

export interface ReturnView {
  state: ReturnState;
  productTitle: string | null;
  shopName: string | null;
  newContractGid: string | null;
}

async function sendFor(sendId: string, token: string) {
  const send = await prisma.winbackSend.findUnique({
    where: { id: sendId },
    include: { campaign: { select: { attributionDays: true } }, shop: { select: { domain: true, installState: true } } },
  });
  // The MAC names shop and send: a token of another send or shop is no token.
  if (!send || send.heldOut || !send.sentAt || !verifyWinbackReturn(send.shopId, send.id, token)) return null;
  return send;
}

type Send = NonNullable<Awaited<ReturnType<typeof sendFor>>>;

function stateOf(send: Send, now: Date): ReturnState {
  if (send.reactivated) return "done";
  if (send.shop.installState !== "INSTALLED") return "expired";
  // The link lives as long as the campaign's attribution window.
  if (now.getTime() > send.sentAt!.getTime() + send.campaign.attributionDays * DAY) return "expired";
  return "ready";
}

async function view(send: Send | null, now: Date): Promise<ReturnView> {
  if (!send) return { state: "invalid", productTitle: null, shopName: null, newContractGid: null };
  const old = await prisma.contract.findUnique({
    where: { shopId_contractGid: { shopId: send.shopId, contractGid: send.contractGid } },
    select: { productTitle: true },
  });
  return {
    state: stateOf(send, now),
    productTitle: old?.productTitle ?? null,
    shopName: send.shop.domain.replace(/\.myshopify\.com$/, ""),
    newContractGid: send.newContractGid,
  };
}

/** What the confirm page shows. Reads only. */
export async function returnOffer(sendId: string, token: string, now = new Date()): Promise<ReturnView> {
  return view(await sendFor(sendId, token), now);
}

/** The POST: claims the send, clones the contract at Shopify, records the reactivation. */
export async function comeBack(sendId: string, token: string, now = new Date()): Promise<ReturnView> {
  const send = await sendFor(sendId, token);
  if (!send || stateOf(send, now) !== "ready") return view(send, now);
  // One claim at a time: a second click, another tab or a retry within the lease sees it taken.
  const claimed = await prisma.winbackSend.updateMany({
    where: {
      id: send.id,
      reactivated: false,
      OR: [{ returnClaimedAt: null }, { returnClaimedAt: { lt: new Date(now.getTime() - CLAIM_LEASE_MS) } }],
    },
    data: { returnClaimedAt: now },
  });
  if (claimed.count === 0) return view(await sendFor(sendId, token), now);
  try {
    const platform = await platformFor(send.shop.domain, "interactive");
    // An earlier claim that lapsed may have made the clone already.
    const earlier = send.returnClaimedAt
      ? (await platform.customerContracts(send.customerGid)).find((c) => c.attributes[WINBACK_SEND_ATTRIBUTE] === send.id)
      : undefined;
    const created = earlier ?? (await platform.createContract(await cloneOf(send, now)));
    await prisma.winbackSend.update({ where: { id: send.id }, data: { reactivated: true, reactivatedAt: now, newContractGid: created.id } });
  } catch (err) {
    // Nothing was made (Shopify refused or could not be reached): the link works again.
    await prisma.winbackSend.updateMany({ where: { id: send.id, reactivated: false }, data: { returnClaimedAt: null } });
    throw err;
  }
  return view(await sendFor(sendId, token), now);
}

async function cloneOf(send: Send, now: Date): Promise<NewContract> {
  const platform = await platformFor(send.shop.domain, "interactive");
  const source = await platform.getCloneSource(send.contractGid);
  if (!source || source.contract.customerId !== send.customerGid) throw new Error(`win-back source contract ${send.contractGid} is not readable`);
  const c = source.contract;
  return {
    customerId: send.customerGid,
    currencyCode: c.currencyCode,
    status: "ACTIVE",
    // The first charge is due at once: the billing engine's next run makes it.
    nextBillingDate: now.toISOString(),
    interval: c.billingPolicy.interval,
    intervalCount: c.billingPolicy.intervalCount,
    paymentMethodId: source.paymentMethodId,
    shippingAddress: source.shippingAddress,
    lines: c.lines.flatMap((l) =>
      l.variantId ? [{ variantId: l.variantId, quantity: l.quantity, priceAmount: l.priceAmount, sellingPlanId: l.sellingPlanId }] : [],
    ),
    attributes: { [WINBACK_SEND_ATTRIBUTE]: send.id },
  };
}
