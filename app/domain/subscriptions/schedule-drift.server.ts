// The drift check (docs/decisions/112-schedule-drift.md): when a contract is created, Shopify's
// first billing date is compared with the one the app's schedule engine gives for a sign-up on the
// contract's creation day. Both are compared as days on the shop's calendar. A mismatch is kept on
// the contract (contracts.schedule_drift) and shown by the Risk Center, naming the plan and both
// dates; Shopify's date stays the one billed.
import type { Prisma } from "@prisma/client";
import type { PlatformContract } from "../../platform/port";
import { groupSchedule } from "../catalog/plan-schedule.server";
import { civilIso, localDate, nextChargeDate, signupDates } from "../shared/schedule";

type Tx = Prisma.TransactionClient;

export interface ScheduleDrift {
  plan: string;
  group_id: string;
  shopify: string;
  expected: string;
  /** Which date disagreed: the first billing date of a checkout, or the date after a renewal. */
  at?: "checkout" | "renewal";
}

/**
 * The drift of a new contract, or null when the dates agree or there is nothing to compare: only
 * contracts a checkout made (they carry their origin order; an import sets its own dates) on an
 * anchored plan (a rolling plan's first date is the sign-up plus one interval, nothing to drift).
 */
export async function scheduleDriftOf(tx: Tx, shopId: string, c: PlatformContract): Promise<ScheduleDrift | null> {
  if (!c.nextBillingDate || !c.originOrderName) return null;
  const planGid = c.lines[0]?.sellingPlanId;
  if (!planGid) return null;
  const plan = await tx.sellingPlan.findFirst({ where: { sellingPlanGid: planGid, group: { shopId } }, include: { group: true } });
  if (!plan || plan.group.scheduleMode !== "ANCHORED") return null;
  const shop = await tx.shop.findUniqueOrThrow({ where: { id: shopId }, select: { ianaTimezone: true } });
  const tz = shop.ianaTimezone;
  const schedule = groupSchedule(plan.group);
  const expected = civilIso(signupDates(localDate(new Date(c.createdAt), tz), schedule).contractNextBilling);
  const shopify = civilIso(localDate(new Date(c.nextBillingDate), tz));
  return expected === shopify ? null : { plan: plan.group.name, group_id: plan.group.groupGid, shopify, expected };
}

/** Records the check's finding on the mirrored contract (null clears it). */
export async function recordScheduleDrift(tx: Tx, shopId: string, c: PlatformContract): Promise<ScheduleDrift | null> {
  const drift = await scheduleDriftOf(tx, shopId, c);
  await tx.contract.updateMany({
    where: { shopId, contractGid: c.id },
    data: { scheduleDrift: drift ? (drift as unknown as Prisma.InputJsonObject) : undefined },
  });
  return drift;
}

/**
 * After a successful charge for `charged`, Shopify moves the contract's next billing date; the
 * engine says where (the next anchor, or one interval on). A disagreement on an anchored plan is
 * recorded like a checkout's; agreement leaves an earlier finding in place.
 */
export async function recordRenewalDrift(tx: Tx, shopId: string, c: PlatformContract, charged: Date): Promise<ScheduleDrift | null> {
  if (!c.nextBillingDate) return null;
  const planGid = c.lines[0]?.sellingPlanId;
  const plan = planGid ? await tx.sellingPlan.findFirst({ where: { sellingPlanGid: planGid, group: { shopId } }, include: { group: true } }) : null;
  if (!plan || plan.group.scheduleMode !== "ANCHORED") return null;
  const { ianaTimezone: tz } = await tx.shop.findUniqueOrThrow({ where: { id: shopId }, select: { ianaTimezone: true } });
  const expected = civilIso(nextChargeDate(localDate(charged, tz), groupSchedule(plan.group)));
  const shopify = civilIso(localDate(new Date(c.nextBillingDate), tz));
  if (expected === shopify) return null;
  const drift: ScheduleDrift = { plan: plan.group.name, group_id: plan.group.groupGid, shopify, expected, at: "renewal" };
  await tx.contract.updateMany({ where: { shopId, contractGid: c.id }, data: { scheduleDrift: drift as unknown as Prisma.InputJsonObject } });
  return drift;
}
