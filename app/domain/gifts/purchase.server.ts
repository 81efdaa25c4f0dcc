// A gift is recognised when its contract is created (the subscription_contracts/create webhook,
// app/domain/subscriptions/mirror.server.ts): a line carrying a recipient's e-mail
// (./attributes.ts) on a selling plan the merchant made giftable. The contract stays the gifter's:
// Shopify refuses a contract whose payment method belongs to another customer
// (CUSTOMER_MISMATCH), so the recipient later gives an address, never a card.
// Prepaid when the plan ends itself after N charges (its maxCycles; the checkout paid the first),
// recurring otherwise (the gifter's card keeps paying). docs/decisions/136-gift-lifecycle.md.
import type { Prisma } from "@prisma/client";
import type { PlatformCustomer } from "../../platform/port";
import { publishEvent, type Published } from "../outbound-webhooks/publish.server";
import { instantAt, parseCivil } from "../shared/schedule";
import type { GiftRequest } from "./attributes";

type Tx = Prisma.TransactionClient;

/** The hour of the chosen day the claim e-mail goes out, in the shop's time zone. */
export const SEND_HOUR = 9;

/** When the claim e-mail is due: SEND_HOUR on the chosen day in the shop's zone, never before now. */
export function sendAtFor(sendOn: string | null, timeZone: string, now: Date): Date {
  const day = sendOn ? parseCivil(sendOn) : null;
  if (!day) return now;
  const at = instantAt(day, SEND_HOUR * 3_600_000, timeZone);
  return at.getTime() > now.getTime() ? at : now;
}

interface PlanFacts {
  giftable: boolean;
  maxCycles: number | null;
}

async function planFacts(tx: Tx, shopId: string, sellingPlanGid: string | null): Promise<PlanFacts | null> {
  if (!sellingPlanGid) return null;
  const plan = await tx.sellingPlan.findFirst({
    where: { sellingPlanGid, group: { shopId } },
    select: { settings: true, group: { select: { giftable: true } } },
  });
  if (!plan) return null;
  const saved = (plan.settings ?? null) as { giftable?: boolean; maxCycles?: number | null } | null;
  return { giftable: saved?.giftable ?? plan.group.giftable, maxCycles: saved?.maxCycles ?? null };
}

export interface GiftPurchase {
  shopId: string;
  timeZone: string;
  contractRowId: string;
  contractGid: string;
  sellingPlanGid: string | null;
  request: GiftRequest;
  gifter: Pick<PlatformCustomer, "email" | "firstName" | "lastName"> | null;
  /** The webhook's time: when the contract was made. */
  occurredAt: Date;
  sourceKey: string;
}

/** Records the gift and publishes gift.created in the contract's transaction; [] when it is no gift. */
export async function recordGiftPurchase(tx: Tx, p: GiftPurchase): Promise<Published[]> {
  const plan = await planFacts(tx, p.shopId, p.sellingPlanGid);
  if (!plan?.giftable) return [];
  const kind = plan.maxCycles ? "PREPAID" : "RECURRING";
  const gifterName = [p.gifter?.firstName, p.gifter?.lastName].filter(Boolean).join(" ") || null;
  const created = await tx.gift.createManyAndReturn({
    data: [
      {
        shopId: p.shopId,
        contractId: p.contractRowId,
        kind,
        status: "PENDING",
        gifterName,
        gifterEmail: p.gifter?.email ?? null,
        recipientName: p.request.recipientName,
        recipientEmail: p.request.recipientEmail,
        message: p.request.message,
        prepaidCharges: plan.maxCycles,
        // The checkout's order paid the first cycle; renewals count on from here.
        chargesRun: 1,
        sendAt: sendAtFor(p.request.sendOn, p.timeZone, p.occurredAt),
      },
    ],
    skipDuplicates: true,
    select: { id: true },
  });
  if (!created.length) return [];
  const gift = created[0];
  return [
    await publishEvent(tx, {
      shopId: p.shopId,
      type: "gift.created",
      sourceKey: `${p.sourceKey}:gift`,
      occurredAt: p.occurredAt,
      data: { gift_id: gift.id, kind: kind === "PREPAID" ? "prepaid" : "recurring", status: "pending", contract_id: p.contractGid },
    }),
  ];
}
