// Card-expiring notices (docs/email.md): 30 and 7 days before the card's expiry month ends, once
// each, read from the platform's payment method; essential mail (no unsubscribe link).
import { prisma } from "../../../app/db.server";
import { expiryNoticeDue, queueCardExpiryNotices } from "../../../app/domain/notifications/card-expiry.server";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { useStack } from "../../support/stack";
import { uniqueAddress, useMailbox, waitForMail } from "../../support/mail";

const stack = useStack({}, 120_000);
const box = useMailbox();

describe("card expiring", () => {
  it("the notice due is 30 days, then 7 days before the end of the expiry month, then none", () => {
    expect(expiryNoticeDue(12, 2030, new Date("2030-11-30T00:00:00Z"))).toBeNull(); // 32 days left
    expect(expiryNoticeDue(12, 2030, new Date("2030-12-02T00:00:00Z"))).toBe(30);
    expect(expiryNoticeDue(12, 2030, new Date("2030-12-25T00:00:00Z"))).toBe(7);
    expect(expiryNoticeDue(12, 2030, new Date("2031-01-01T00:00:00Z"))).toBeNull(); // expired
  });

  it("a customer whose card expires is e-mailed 30 and 7 days before, once each, whatever the number of runs", async () => {
    const { domain, shopId } = await stack.installShop();
    const email = uniqueAddress("card");
    const customer = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(domain)}/customers`, {
      email,
      paymentMethod: { kind: "credit_card", brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: 2030 },
    });
    const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
      title: "Tea",
      variants: [{ price: "9.00" }],
    });
    for (let i = 0; i < 2; i++) {
      const contract = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(domain)}/contracts`, {
        customerId: customer.id,
        status: "ACTIVE",
        nextBillingDate: "2031-01-15T00:00:00Z",
        lines: [{ variantId: product.variants[0].id, quantity: 1 }],
        webhooks: false,
      });
      await reconcileContract(domain, contract.id);
    }

    expect(await queueCardExpiryNotices(domain, new Date("2030-12-05T10:00:00Z"))).toBe(1);
    expect(await queueCardExpiryNotices(domain, new Date("2030-12-06T10:00:00Z"))).toBe(0);
    const [first] = await waitForMail(box, email, 1);
    expect(first.subject).toMatch(/ending in 4242 expires soon/);
    expect(first.text).toContain("expires at the end of 12/2030");
    expect(first.headers["list-unsubscribe"]).toBeUndefined();

    expect(await queueCardExpiryNotices(domain, new Date("2030-12-26T10:00:00Z"))).toBe(1);
    expect(await queueCardExpiryNotices(domain, new Date("2030-12-27T10:00:00Z"))).toBe(0);
    await waitForMail(box, email, 2);
    expect(await prisma.notificationLogEntry.count({ where: { shopId, event: "payment_method_expiring" } })).toBe(2);
  });
});
