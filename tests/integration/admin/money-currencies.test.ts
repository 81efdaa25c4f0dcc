// Minor units follow ISO 4217 exponents everywhere (docs/decisions/020): JPY has none, KWD three,
// USD two. Contracts are created at the platform (the simulator), reach the mirror through the
// signed subscription_contracts/create webhook and a real worker, and are read back over HTTP
// through the Admin API (the contract, its lines) and MRR.
import { prisma } from "../../../app/db.server";

import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { useStack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const stack = useStack();

type SimContract = { id: string; lines: { id: string }[] };

const CASES = [
  // currency, unit price as the platform sends it, quantity, charge in minor units, as the API shows it, the unit price shown
  { currency: "JPY", price: "1500", quantity: 2, minor: 3000, amount: "3000", unit: "1500" },
  { currency: "KWD", price: "12.345", quantity: 1, minor: 12345, amount: "12.345", unit: "12.345" },
  { currency: "USD", price: "18.50", quantity: 2, minor: 3700, amount: "37.00", unit: "18.50" },
] as const;

async function setUp() {
  const { domain, shopId } = await stack.installShop();
  const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
    title: "Tea",
    variants: [{ title: "Tin", price: "10.00" }],
  });
  const contracts = new Map<string, SimContract>();
  for (const c of CASES) {
    contracts.set(
      c.currency,
      await stack.control.call<SimContract>("POST", `${stack.control.shop(domain)}/contracts`, {
        currencyCode: c.currency,
        billingPolicy: { interval: "MONTH", intervalCount: 1 },
        lines: [{ variantId: product.variants[0].id, quantity: c.quantity, price: c.price }],
      }),
    );
  }
  // The create webhooks reach the mirror through the queue.
  await stack.settled(domain, async () => (await prisma.contract.count({ where: { shopId } })) === CASES.length);
  const { key } = await createKey({ shopId, name: "money", scopes: ["read:subscriptions", "read:analytics"], kind: "SECRET" });
  const get = async (path: string) => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return res.json();
  };
  return { domain, shopId, contracts, get };
}

describe("money in JPY, KWD and USD", () => {
  it("the mirror keeps minor units in each currency's exponent (webhook, then a whole-shop reconcile)", async () => {
    const { domain, shopId, contracts } = await setUp();
    const check = async () => {
      for (const c of CASES) {
        const row = await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: contracts.get(c.currency)!.id }, include: { lines: true } });
        expect({ currency: row.currencyCode, charge: row.chargeAmountCents, monthly: row.monthlyAmountCents, line: row.lines[0].priceCents }).toEqual({
          currency: c.currency,
          charge: c.minor,
          monthly: c.minor,
          line: c.minor / c.quantity,
        });
      }
    };
    await check();
    await prisma.contract.updateMany({ where: { shopId }, data: { revision: 0n } }); // make the reconcile rewrite them
    await reconcileShop(domain);
    await check();
  });

  it("the Admin API returns each amount as a decimal string in the currency's exponent", async () => {
    const { contracts, get } = await setUp();
    for (const c of CASES) {
      const body = await get(`/subscriptions/${encodeURIComponent(contracts.get(c.currency)!.id)}`);
      expect(body.charge_amount).toEqual({ amount: c.amount, currency_code: c.currency });
      expect(body.monthly_amount).toEqual({ amount: c.amount, currency_code: c.currency });
      expect(body.lines[0].price).toEqual({ amount: c.unit, currency_code: c.currency });
    }
    const list = await get(`/subscriptions?limit=10`);
    expect(list.data.map((s: { charge_amount: unknown }) => s.charge_amount)).toEqual(
      expect.arrayContaining(CASES.map((c) => ({ amount: c.amount, currency_code: c.currency }))),
    );
  });

  it("MRR is summed per currency in that currency's exponent", async () => {
    const { get } = await setUp();
    const body = await get("/analytics/mrr");
    expect(body.mrr).toEqual(expect.arrayContaining(CASES.map((c) => ({ amount: c.amount, currency_code: c.currency }))));
    expect(body.mrr).toHaveLength(CASES.length);
    expect(body.active_contracts).toBe(CASES.length);
  });
});
