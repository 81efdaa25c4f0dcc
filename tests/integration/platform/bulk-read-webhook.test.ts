// A bulk read is signalled by Shopify's bulk_operations/finish webhook (docs/decisions/097-bulk-reads.md):
// with polling set far beyond the test's length, the reconcile still finishes once the operation
// does, because the webhook (received by the app, recorded inline) marks the run's operation
// finished and the waiting run then asks Shopify for the result's url. A shop under the large-shop
// size is paged, not read in bulk.
import { prisma } from "../../../app/db.server";
import { LARGE_SHOP_CONTRACTS, reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { startStack, type Stack } from "../../support/stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

async function seed(domain: string, count: number) {
  const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
    title: "Tea",
    variants: [{ price: "4.00" }],
  });
  await stack.control.call("POST", `${stack.control.shop(domain)}/contracts/bulk`, {
    count,
    template: { lines: [{ variantId: product.variants[0].id, quantity: 1, price: "4.00" }] },
  });
}

it("the finish webhook, not polling, tells the waiting reconcile that its bulk operation is done", async () => {
  const shop = await stack.installShop();
  await seed(shop.domain, 40);
  await stack.control.bulkOperations(shop.domain, { hold: true });
  // Shopify is asked once, at the start; the next ask would be ten minutes later.
  const reconciled = reconcileShop(shop.domain, { via: "bulk", pollMs: 600_000 });
  await stack.settled(shop.domain, async () => (await stack.control.bulkOperations(shop.domain)).operations[0]?.status === "RUNNING");
  await stack.settled(
    shop.domain,
    async () => (await prisma.bulkRead.findUnique({ where: { shopId_purpose: { shopId: shop.shopId, purpose: "reconcile" } } }))?.operationGid,
  );
  await stack.control.bulkOperations(shop.domain, { hold: false });

  const report = await reconciled;
  expect(report).toMatchObject({ via: "bulk", contracts: 40, resumedFromLine: 0 });
  const hook = await prisma.inboundWebhook.findFirstOrThrow({ where: { shopDomain: shop.domain, topic: "bulk_operations/finish" } });
  expect(hook.processedAt).not.toBeNull();
  expect(await prisma.contract.count({ where: { shopId: shop.shopId } })).toBe(40);
  const run = await prisma.bulkRead.findUniqueOrThrow({ where: { shopId_purpose: { shopId: shop.shopId, purpose: "reconcile" } } });
  expect(run).toMatchObject({ status: "COMPLETED", rootsApplied: 40, resumes: 0, operationGid: report.operationId });
  expect(run.finishedAt).not.toBeNull();
}, 120_000);

it("a shop under the large-shop size is paged; one at it is read in bulk after its first pages", async () => {
  const small = await stack.installShop();
  await seed(small.domain, 20);
  expect(await reconcileShop(small.domain)).toEqual({ contracts: 20, via: "pages" });
  expect((await stack.control.bulkOperations(small.domain)).started).toBe(0);

  const large = await stack.installShop();
  await seed(large.domain, LARGE_SHOP_CONTRACTS + 20);
  await stack.control.rateLimit(large.domain, { plan: "plus" });
  const first = await reconcileShop(large.domain, { pollMs: 200 });
  expect(first).toMatchObject({ via: "bulk", contracts: LARGE_SHOP_CONTRACTS + 20 });
  expect((await stack.control.bulkOperations(large.domain)).started).toBe(1);
  // Known to be large now, the next reconcile goes straight to bulk: no page is read.
  const pagesBefore = (await stack.control.operations(large.domain, { operation: "subscriptionContracts" })).length;
  expect(await reconcileShop(large.domain, { pollMs: 200 })).toMatchObject({ via: "bulk", contracts: LARGE_SHOP_CONTRACTS + 20 });
  expect((await stack.control.operations(large.domain, { operation: "subscriptionContracts" })).length).toBe(pagesBefore);
  expect((await stack.control.bulkOperations(large.domain)).started).toBe(2);
  expect(await prisma.contract.count({ where: { shopId: large.shopId } })).toBe(LARGE_SHOP_CONTRACTS + 20);
}, 240_000);
