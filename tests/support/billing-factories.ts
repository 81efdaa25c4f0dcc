// Test data for the billing engine: a customer whose payment method behaves as asked (succeed,
// decline with a Shopify error code, or need authentication) and a contract of theirs due at a
// given date, created on the simulator and mirrored through the real reconcile.
import { reconcileContract } from "../../app/domain/subscriptions/mirror.server";
import { prisma } from "../../app/db.server";
import type { SimulatorControl } from "../../simulator/control-client";
import type { BillingAttempt } from "../../simulator/state";

export interface SeededContract {
  gid: string;
  customerGid: string;
  paymentMethodGid: string;
}

export async function seedDueContract(
  control: SimulatorControl,
  domain: string,
  opts: {
    nextBillingDate: string;
    billing?: string;
    status?: "ACTIVE" | "PAUSED" | "CANCELLED";
    anchors?: { day: number; month?: number | null; type: "WEEKDAY" | "MONTHDAY" | "YEARDAY" }[];
    interval?: "DAY" | "WEEK" | "MONTH" | "YEAR";
    price?: string;
  },
): Promise<SeededContract> {
  const customer = await control.call<{ id: string; paymentMethods: { id: string }[] }>("POST", `${control.shop(domain)}/customers`, {
    paymentMethod: { kind: "credit_card", ...(opts.billing ? { billing: opts.billing } : {}) },
  });
  const product = await control.call<{ variants: { id: string }[] }>("POST", `${control.shop(domain)}/products`, {
    title: "Coffee",
    variants: [{ price: opts.price ?? "24.00" }],
  });
  const contract = await control.call<{ id: string }>("POST", `${control.shop(domain)}/contracts`, {
    customerId: customer.id,
    status: opts.status ?? "ACTIVE",
    nextBillingDate: opts.nextBillingDate,
    billingPolicy: { interval: opts.interval ?? "MONTH", intervalCount: 1, anchors: (opts.anchors ?? []).map((a) => ({ month: null, ...a })) },
    lines: [{ variantId: product.variants[0].id, quantity: 1 }],
    webhooks: false,
  });
  await reconcileContract(domain, contract.id);
  return { gid: contract.id, customerGid: customer.id, paymentMethodGid: customer.paymentMethods[0].id };
}

/** The simulator's billing attempts on one contract (what Shopify actually charged). */
export async function simAttempts(control: SimulatorControl, domain: string, contractGid: string) {
  const all = await control.call<BillingAttempt[]>("GET", `${control.shop(domain)}/billing-attempts`);
  return all.filter((a) => a.contractId === contractGid);
}

export async function eventsOf(shopId: string, type: string, contractGid?: string) {
  const rows = await prisma.event.findMany({ where: { shopId, type }, orderBy: { createdAt: "asc" }, select: { id: true, data: true } });
  return rows
    .map((r) => ({ id: r.id, data: r.data as Record<string, unknown> }))
    .filter((r) => contractGid === undefined || r.data.contract_id === contractGid);
}

export async function mirrorOf(shopId: string, contractGid: string) {
  return prisma.contract.findUniqueOrThrow({ where: { shopId_contractGid: { shopId, contractGid } }, select: { status: true, nextBillingAt: true } });
}
