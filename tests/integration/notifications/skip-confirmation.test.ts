// A skip made at Shopify (the shopper's own token, as a custom portal does) is confirmed by e-mail:
// the subscription_billing_cycles/skip webhook queues the same message, keyed by the skipped date,
// that the app's own skip queues (app/domain/subscriptions/skip-confirmation.server.ts).
import { prisma } from "../../../app/db.server";
import { customerToken } from "../../support/customer-factories";
import { useStack } from "../../support/stack";
import { seedMailContract, uniqueAddress, useMailbox, waitForMail } from "../../support/mail";

const stack = useStack({}, 120_000);
const box = useMailbox();

const SKIP = `mutation S($input: SubscriptionBillingCycleInput!) {
  subscriptionBillingCycleSkip(billingCycleInput: $input) { billingCycle { cycleIndex skipped } userErrors { code message } }
}`;

async function shopperSkips(domain: string, customerGid: string, contractGid: string, date: string) {
  const { numericId } = await stack.control.call<{ numericId: number }>("GET", stack.control.shop(domain));
  const res = await fetch(`${stack.sim.url}/shopify.com/${numericId}/account/customer/api/2026-10/graphql`, {
    method: "POST",
    headers: { Authorization: await customerToken(stack.control, domain, customerGid), "Content-Type": "application/json" },
    body: JSON.stringify({ query: SKIP, variables: { input: { contractId: contractGid, selector: { date } } } }),
  });
  const body = (await res.json()) as { data: { subscriptionBillingCycleSkip: { userErrors: unknown[] } } };
  expect(body.data.subscriptionBillingCycleSkip.userErrors).toEqual([]);
}

describe("a skip made at Shopify", () => {
  it("is confirmed once by e-mail, naming the next charge Shopify now has; skipping the same cycle again sends nothing more", async () => {
    const { domain, shopId } = await stack.installShop();
    const email = uniqueAddress("skip");
    const contract = await seedMailContract(stack.control, domain, { email, nextBillingDate: "2031-03-10T12:00:00Z", title: "Oolong" });

    await shopperSkips(domain, contract.customerGid, contract.gid, "2031-03-10T12:00:00Z");
    const [mail] = await waitForMail(box, email, 1, 30_000);
    expect(mail.subject).toBe("Your next Oolong delivery is skipped");
    // The mirror was refreshed before the message was written: April's charge, not March's.
    expect(mail.text).toContain("The next charge is on April 10, 2031.");
    expect(await prisma.contract.findUniqueOrThrow({ where: { shopId_contractGid: { shopId, contractGid: contract.gid } } })).toMatchObject({
      nextBillingAt: new Date("2031-04-10T12:00:00Z"),
    });

    // The same cycle again: Shopify answers without a new webhook; a later cycle is its own message.
    await shopperSkips(domain, contract.customerGid, contract.gid, "2031-03-10T12:00:00Z");
    await shopperSkips(domain, contract.customerGid, contract.gid, "2031-06-10T12:00:00Z");
    const both = await waitForMail(box, email, 2, 30_000);
    await stack.sim.idle();
    expect(both.map((m) => m.subject)).toEqual(["Your next Oolong delivery is skipped", "Your next Oolong delivery is skipped"]);
    const rows = await prisma.notificationLogEntry.findMany({ where: { shopId, event: "subscription_skipped" }, select: { idempotencyKey: true } });
    expect(rows).toHaveLength(2);
  });
});
