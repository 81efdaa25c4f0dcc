// The Risk Center's money (app/domain/renewals/overview.server.ts revenueAtRisk): payments in
// dunning with what each charge is worth, the reason in words and the next retry, soonest first;
// subscriptions in FAILED with their per-charge total; per currency, never converted; the shop's
// rows only.
import { prisma } from "../../../app/db.server";
import { revenueAtRisk } from "../../../app/domain/renewals/overview.server";
import { createContract, createShop } from "../../support/fixtures";

async function dunningCycle(
  shopId: string,
  contract: { id: string; contractGid: string },
  nextRetryAt: Date,
  lastErrorCode: string | null,
  status: "DUNNING" | "PAID" = "DUNNING",
) {
  await prisma.billingCycle.create({
    data: {
      shopId,
      contractId: contract.id,
      contractGid: contract.contractGid,
      cycleAt: new Date("2031-03-01T00:00:00Z"),
      status,
      attempts: 2,
      nextRetryAt,
      lastErrorCode,
    },
  });
}

it("payments in dunning and failed subscriptions, with amounts per currency, reasons in words, soonest retry first, one shop only", async () => {
  const shop = await createShop();
  const other = await createShop();
  const soon = new Date("2031-03-03T00:00:00Z");
  const later = new Date("2031-03-08T00:00:00Z");
  const a = await createContract(shop.id, { chargeAmountCents: 3550, currencyCode: "USD" });
  const b = await createContract(shop.id, { chargeAmountCents: 2000, currencyCode: "USD" });
  const paid = await createContract(shop.id, { chargeAmountCents: 9900, currencyCode: "USD" });
  await dunningCycle(shop.id, a, later, null);
  await dunningCycle(shop.id, b, soon, "INSUFFICIENT_FUNDS");
  await dunningCycle(shop.id, paid, soon, null, "PAID");
  await createContract(shop.id, { status: "FAILED", chargeAmountCents: 3000, currencyCode: "JPY" });
  await createContract(shop.id, { status: "FAILED", chargeAmountCents: 1200, currencyCode: "USD" });
  const foreign = await createContract(other.id, { chargeAmountCents: 5000 });
  await dunningCycle(other.id, foreign, soon, null);

  const risk = await revenueAtRisk(shop.id);
  expect(risk.dunning.count).toBe(2);
  expect(risk.dunning.totals).toEqual([{ amount: "55.50", currency_code: "USD" }]);
  expect(risk.dunning.rows).toEqual([
    {
      contractGid: b.contractGid,
      customerGid: b.customerGid,
      amount: { amount: "20.00", currency_code: "USD" },
      reason: "The card has insufficient funds.",
      attempts: 2,
      nextRetryAt: soon.toISOString(),
    },
    {
      contractGid: a.contractGid,
      customerGid: a.customerGid,
      amount: { amount: "35.50", currency_code: "USD" },
      reason: "The payment did not go through.",
      attempts: 2,
      nextRetryAt: later.toISOString(),
    },
  ]);
  expect(risk.failed).toEqual({
    count: 2,
    totals: [
      { amount: "3000", currency_code: "JPY" },
      { amount: "12.00", currency_code: "USD" },
    ],
  });
});
