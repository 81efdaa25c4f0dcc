// The detail page's live reads and charge history (app/domain/subscriptions/detail.server.ts),
// against the real platform simulator and PostgreSQL: the customer with their default address, the
// contract's payment method, "Shopify did not answer" told apart from "none", and the mirrored
// billing attempts with failures in words, this shop's only.
import { prisma } from "../../../app/db.server";
import { chargeHistory, detailCustomer, detailPaymentMethod } from "../../../app/domain/subscriptions/detail.server";
import { chargeFailureReason } from "../../../app/domain/shared/payment-errors";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import type { RunningSimulator } from "../../../simulator/server";
import { seedWriteShop, sim, startTestSimulator } from "../../support/admin-sim";

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startTestSimulator();
});
afterAll(async () => {
  await simulator?.close();
});

async function seed() {
  const s = await seedWriteShop(simulator.url);
  const customer = await sim(simulator.url, "POST", `/shops/${s.shop.domain}/customers`, {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    address: { address1: "12 Analytical Row", city: "London", province: null, country: "United Kingdom", zip: "N1 9GU" },
    paymentMethod: { kind: "credit_card", brand: "mastercard", last4: "4444", expiryMonth: 3, expiryYear: 2029 },
  });
  const c = await sim(simulator.url, "POST", `/shops/${s.shop.domain}/contracts`, {
    customerId: customer.id,
    lines: [{ variantId: s.variants.inGroup, quantity: 1, sellingPlanId: s.planGid }],
    billingPolicy: { interval: "MONTH", intervalCount: 1 },
    nextBillingDate: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    webhooks: false,
  });
  await reconcileContract(s.shop.domain, c.id);
  return { ...s, customerGid: customer.id as string, contractGid: c.id as string };
}

describe("subscription detail", () => {
  it("reads the customer, their default address and the contract's card from Shopify", async () => {
    const s = await seed();
    const customer = await detailCustomer(s.shop.domain, s.customerGid);
    expect(customer).toMatchObject({
      unavailable: false,
      value: { name: "Ada Lovelace", email: "ada@example.com", address: { address1: "12 Analytical Row", city: "London", zip: "N1 9GU" } },
    });
    const payment = await detailPaymentMethod(s.shop.domain, s.contractGid);
    expect(payment).toMatchObject({ unavailable: false, value: { kind: "credit_card", brand: "mastercard", last4: "4444", expiryMonth: 3, expiryYear: 2029 } });
    // Nothing about the customer is written to the database (docs/decisions/134).
    const row = await prisma.contract.findFirstOrThrow({ where: { shopId: s.shop.id, contractGid: s.contractGid } });
    const stored = JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    expect(stored).not.toContain("Lovelace");
    expect(stored).not.toContain("Analytical");
  });

  it("says unavailable, not 'no customer', when Shopify does not answer", async () => {
    const s = await seed();
    for (let i = 0; i < 5; i++) await sim(simulator.url, "POST", `/shops/${s.shop.domain}/failures`, { operation: "nodes", status: 503 });
    expect(await detailCustomer(s.shop.domain, s.customerGid)).toEqual({ unavailable: true });
    expect(await detailCustomer(s.shop.domain, s.customerGid)).toMatchObject({ unavailable: false, value: { name: "Ada Lovelace" } });
    expect(await detailCustomer(s.shop.domain, "gid://shopify/Customer/999999")).toEqual({ unavailable: false, value: null });
  });

  it("lists the contract's charges newest first, failures in words, and no other shop's", async () => {
    const s = await seed();
    const other = await seed();
    const contract = await prisma.contract.findFirstOrThrow({ where: { shopId: s.shop.id, contractGid: s.contractGid } });
    const due = new Date("2026-10-01T00:00:00Z");
    const cycle = await prisma.billingCycle.create({
      data: { shopId: s.shop.id, contractId: contract.id, contractGid: s.contractGid, cycleAt: due, status: "DUNNING", attempts: 2 },
    });
    const base = { shopId: s.shop.id, cycleId: cycle.id, currencyCode: "EUR", amountMinor: 2400 };
    await prisma.billingAttempt.create({
      data: { ...base, number: 1, idempotencyKey: "a1", status: "FAILED", errorCode: "INSUFFICIENT_FUNDS", createdAt: due, completedAt: due },
    });
    const later = new Date(due.getTime() + 3 * 86_400_000);
    await prisma.billingAttempt.create({
      data: { ...base, number: 2, idempotencyKey: "a2", status: "SUCCEEDED", orderGid: "gid://shopify/Order/7", createdAt: later, completedAt: later },
    });

    const charges = await chargeHistory(s.shop.id, s.contractGid);
    expect(charges).toEqual([
      {
        at: later.toISOString(),
        number: 2,
        cycle_at: due.toISOString(),
        outcome: "paid",
        reason: null,
        amount: { amount: "24.00", currency_code: "EUR" },
        order_id: "gid://shopify/Order/7",
      },
      {
        at: due.toISOString(),
        number: 1,
        cycle_at: due.toISOString(),
        outcome: "failed",
        reason: "The card has insufficient funds.",
        amount: { amount: "24.00", currency_code: "EUR" },
        order_id: null,
      },
    ]);
    expect(await chargeHistory(other.shop.id, s.contractGid)).toEqual([]);
    expect(await chargeHistory(s.shop.id, other.contractGid)).toEqual([]);
  });

  it("never shows a code: an unknown or missing error code still reads as a sentence", () => {
    expect(chargeFailureReason("SOMETHING_NEW")).toBe("The payment did not go through.");
    expect(chargeFailureReason(null)).toBe("The payment did not go through.");
    expect(chargeFailureReason("EXPIRED_PAYMENT_METHOD")).toBe("The card has expired.");
  });
});
