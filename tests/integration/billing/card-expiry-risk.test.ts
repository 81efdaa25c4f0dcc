// Cards expiring before the next charge (docs/decisions/158-card-expiry-mirror.md): every contract
// sync mirrors the expiry month of the card the contract is charged to (the webhook sync, the paged
// reconcile, the bulk reconcile), a replaced or removed card is picked up by the next sync although
// the contract's revision did not move, and the Risk Center's money lists the active contracts whose
// card is no longer valid in the month of their next charge, with what that charge is worth.
import { prisma } from "../../../app/db.server";
import { revenueAtRisk } from "../../../app/domain/renewals/overview.server";
import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { useStack } from "../../support/stack";

const stack = useStack();

type Card =
  { kind: "credit_card"; expiryMonth: number; expiryYear: number } | { kind: "shop_pay"; expiryMonth: number; expiryYear: number } | { kind: "paypal" };

async function contractWithCard(domain: string, card: Card, opts: { nextBillingDate: string; price: string; webhooks: boolean; status?: "ACTIVE" | "PAUSED" }) {
  const customer = await stack.control.call<{ id: string; paymentMethods: { id: string }[] }>("POST", `${stack.control.shop(domain)}/customers`, {
    firstName: "Ada",
    lastName: "Lovelace",
    paymentMethod: card,
  });
  const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
    title: "Coffee",
    variants: [{ price: opts.price }],
  });
  const contract = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(domain)}/contracts`, {
    customerId: customer.id,
    status: opts.status ?? "ACTIVE",
    nextBillingDate: opts.nextBillingDate,
    billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
    lines: [{ variantId: product.variants[0].id, quantity: 2 }],
    webhooks: opts.webhooks,
  });
  return { gid: contract.id, customerGid: customer.id, paymentMethodGid: customer.paymentMethods[0].id };
}

const cardOf = (shopId: string, contractGid: string) =>
  prisma.contract.findUniqueOrThrow({
    where: { shopId_contractGid: { shopId, contractGid } },
    select: { cardExpiryMonth: true, cardExpiryYear: true, revision: true },
  });

it("the contract webhook's sync mirrors the card's expiry month; PayPal has none", async () => {
  const shop = await stack.installShop();
  const card = await contractWithCard(
    shop.domain,
    { kind: "credit_card", expiryMonth: 2, expiryYear: 2031 },
    { nextBillingDate: "2031-03-05T00:00:00Z", price: "12.50", webhooks: true },
  );
  const paypal = await contractWithCard(shop.domain, { kind: "paypal" }, { nextBillingDate: "2031-03-05T00:00:00Z", price: "9.00", webhooks: true });
  await stack.settled(shop.domain, async () => (await prisma.contract.count({ where: { shopId: shop.shopId } })) === 2);
  expect(await cardOf(shop.shopId, card.gid)).toMatchObject({ cardExpiryMonth: 2, cardExpiryYear: 2031 });
  expect(await cardOf(shop.shopId, paypal.gid)).toMatchObject({ cardExpiryMonth: null, cardExpiryYear: null });
});

it("a card updated at Shopify (customer_payment_methods/update) moves the expiry the mirror holds for every contract it pays, and takes the contract off the Risk Center", async () => {
  const shop = await stack.installShop();
  const a = await contractWithCard(
    shop.domain,
    { kind: "credit_card", expiryMonth: 12, expiryYear: 2030 },
    { nextBillingDate: "2031-02-05T00:00:00Z", price: "7.00", webhooks: true },
  );
  await stack.settled(shop.domain, async () => (await prisma.contract.count({ where: { shopId: shop.shopId } })) === 1);
  const before = await cardOf(shop.shopId, a.gid);
  expect(before).toMatchObject({ cardExpiryMonth: 12, cardExpiryYear: 2030 });
  expect((await revenueAtRisk(shop.shopId)).expiringCards.rows.map((r) => r.contractGid)).toEqual([a.gid]);

  // The card updater gives the same card a new expiry: Shopify sends the webhook, not a contract update.
  await stack.control.call("PATCH", `${stack.control.shop(shop.domain)}/payment-methods/${a.paymentMethodGid.split("/").pop()}`, {
    expiryMonth: 9,
    expiryYear: 2034,
  });
  const after = await stack.settled(shop.domain, async () => {
    const c = await cardOf(shop.shopId, a.gid);
    return c.cardExpiryYear === 2034 ? c : null;
  });
  expect(after).toEqual({ cardExpiryMonth: 9, cardExpiryYear: 2034, revision: before.revision });
  expect((await revenueAtRisk(shop.shopId)).expiringCards.count).toBe(0);
  // Announced as well, once.
  expect(await prisma.event.count({ where: { shopId: shop.shopId, type: "customer.payment_method_updated" } })).toBe(1);
});

it.each(["pages", "bulk"] as const)("the %s reconcile mirrors it, and a removed card clears it although the contract's revision did not move", async (via) => {
  const shop = await stack.installShop();
  const a = await contractWithCard(
    shop.domain,
    { kind: "shop_pay", expiryMonth: 11, expiryYear: 2030 },
    { nextBillingDate: "2031-01-10T00:00:00Z", price: "5.00", webhooks: false },
  );
  await reconcileShop(shop.domain, { via, pollMs: 100 });
  const before = await cardOf(shop.shopId, a.gid);
  expect(before).toMatchObject({ cardExpiryMonth: 11, cardExpiryYear: 2030 });

  await stack.control.call("POST", `${stack.control.shop(shop.domain)}/payment-methods/${a.paymentMethodGid.split("/").pop()}/revoke`);
  await reconcileShop(shop.domain, { via, pollMs: 100 });
  expect(await cardOf(shop.shopId, a.gid)).toEqual({ cardExpiryMonth: null, cardExpiryYear: null, revision: before.revision });
});

it("the Risk Center's money: active contracts whose card expires before the month of their next charge, soonest charge first, this shop only", async () => {
  const shop = await stack.installShop();
  const other = await stack.installShop();
  const opts = { webhooks: false } as const;
  // Valid through February, charged in March: at risk.
  const late = await contractWithCard(
    shop.domain,
    { kind: "credit_card", expiryMonth: 2, expiryYear: 2031 },
    { ...opts, nextBillingDate: "2031-03-20T00:00:00Z", price: "12.50" },
  );
  // Already expired, charged sooner: at risk, listed first.
  const soon = await contractWithCard(
    shop.domain,
    { kind: "credit_card", expiryMonth: 12, expiryYear: 2030 },
    { ...opts, nextBillingDate: "2031-01-02T00:00:00Z", price: "4.00" },
  );
  // Valid through March, charged on March 31st: fine.
  await contractWithCard(
    shop.domain,
    { kind: "credit_card", expiryMonth: 3, expiryYear: 2031 },
    { ...opts, nextBillingDate: "2031-03-31T12:00:00Z", price: "30.00" },
  );
  // Paused: no charge is coming.
  await contractWithCard(
    shop.domain,
    { kind: "credit_card", expiryMonth: 1, expiryYear: 2031 },
    { ...opts, nextBillingDate: "2031-03-20T00:00:00Z", price: "7.00", status: "PAUSED" },
  );
  await contractWithCard(shop.domain, { kind: "paypal" }, { ...opts, nextBillingDate: "2031-03-20T00:00:00Z", price: "8.00" });
  await contractWithCard(
    other.domain,
    { kind: "credit_card", expiryMonth: 1, expiryYear: 2031 },
    { ...opts, nextBillingDate: "2031-03-20T00:00:00Z", price: "99.00" },
  );
  await reconcileShop(shop.domain, { via: "pages" });
  await reconcileShop(other.domain, { via: "pages" });

  const { expiringCards } = await revenueAtRisk(shop.shopId);
  expect(expiringCards).toEqual({
    count: 2,
    totals: [{ amount: "33.00", currency_code: "USD" }],
    rows: [
      {
        contractGid: soon.gid,
        customerGid: soon.customerGid,
        amount: { amount: "8.00", currency_code: "USD" },
        nextChargeAt: "2031-01-02T00:00:00.000Z",
        cardExpiry: "12/2030",
      },
      {
        contractGid: late.gid,
        customerGid: late.customerGid,
        amount: { amount: "25.00", currency_code: "USD" },
        nextChargeAt: "2031-03-20T00:00:00.000Z",
        cardExpiry: "02/2031",
      },
    ],
  });
});
