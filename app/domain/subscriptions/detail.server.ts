// What a support agent needs beside the contract on its detail page: who the customer is and where
// the order ships (read live from Shopify, never stored: docs/decisions/134-customer-names-live.md),
// the payment method on the contract (read live), and the charges made (the billing attempts the
// renewals mirror). A Shopify read that fails is told apart from "none", so the page can say which
// (docs/decisions/135-subscription-detail-live.md).
import { chargeFailureReason } from "../shared/payment-errors";
import { prisma } from "../../db.server";
import { platformFor } from "../../platform/index.server";
import type { PlatformAddress, PlatformPaymentMethod } from "../../platform/port";
import { log } from "../../infra/log.server";
import { money, type Money } from "../shared/money.server";

export interface DetailCustomer {
  name: string | null;
  email: string | null;
  phone: string | null;
  address: PlatformAddress | null;
}

/** A live read: the value (null: Shopify has none), or unavailable when Shopify did not answer. */
export type Live<T> = { unavailable: false; value: T | null } | { unavailable: true };

export interface ChargeEntry {
  at: string;
  /** The charge number within its cycle: 1 is the due date's charge, 2.. are retries. */
  number: number;
  cycle_at: string;
  outcome: "pending" | "paid" | "failed" | "needs_authentication" | "refused";
  /** Why it failed, in the merchant's words (null when it did not fail). */
  reason: string | null;
  amount: Money | null;
  order_id: string | null;
}

async function live<T>(what: string, read: () => Promise<T | null>): Promise<Live<T>> {
  try {
    return { unavailable: false, value: await read() };
  } catch (err) {
    log.warn(`could not read the ${what} from Shopify`, { err });
    return { unavailable: true };
  }
}

export async function detailCustomer(shopDomain: string, customerGid: string): Promise<Live<DetailCustomer>> {
  return live("customer", async () => {
    const [c] = await (await platformFor(shopDomain)).getCustomers([customerGid]);
    if (!c) return null;
    return { name: [c.firstName, c.lastName].filter(Boolean).join(" ") || null, email: c.email, phone: c.phone, address: c.shippingAddress };
  });
}

export async function detailPaymentMethod(shopDomain: string, contractGid: string): Promise<Live<PlatformPaymentMethod>> {
  return live("payment method", async () => (await platformFor(shopDomain)).getPaymentMethod(contractGid));
}

const OUTCOME = { PENDING: "pending", SUCCEEDED: "paid", FAILED: "failed", CHALLENGED: "needs_authentication", REFUSED: "refused" } as const;

/** The contract's charges, newest first (this shop's only). */
export async function chargeHistory(shopId: string, contractGid: string, limit = 50): Promise<ChargeEntry[]> {
  const rows = await prisma.billingAttempt.findMany({
    where: { shopId, cycle: { shopId, contractGid } },
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take: limit,
    select: {
      number: true,
      status: true,
      errorCode: true,
      orderGid: true,
      amountMinor: true,
      currencyCode: true,
      createdAt: true,
      completedAt: true,
      cycle: { select: { cycleAt: true } },
    },
  });
  return rows.map((r) => {
    const outcome = OUTCOME[r.status];
    return {
      at: (r.completedAt ?? r.createdAt).toISOString(),
      number: r.number,
      cycle_at: r.cycle.cycleAt.toISOString(),
      outcome,
      reason: outcome === "failed" || outcome === "refused" ? chargeFailureReason(r.errorCode) : null,
      amount: money(r.amountMinor, r.currencyCode),
      order_id: r.orderGid,
    };
  });
}
