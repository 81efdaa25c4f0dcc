// The demo (docs/decisions/080): after the demo seed, `npm run cli -- billing run --shop
// demo-shop.myshopify.com` charges the renewals that are due, and the Admin API answers the dates
// Shopify moved them to.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { prisma } from "../../../app/db.server";

import type { BillingRunSummary } from "../../../app/domain/renewals/charge.server";
import { seedDemo } from "../../../prisma/seed";
import { startStack, type Stack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const run = promisify(execFile);
const DEMO = "demo-shop.myshopify.com";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  await seedDemo();
}, 300_000);
afterAll(async () => {
  await stack?.close();
});

it("billing run on the demo shop charges what is due, and the Admin API shows the moved dates", async () => {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: DEMO } });
  const due = await prisma.contract.findMany({
    where: { shopId: shop.id, status: "ACTIVE", nextBillingAt: { lte: new Date() } },
    select: { contractGid: true, nextBillingAt: true },
  });
  expect(due.length).toBeGreaterThan(0);

  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/cli.ts", "billing", "run", "--shop", DEMO], { env: process.env });
  const summary = JSON.parse(stdout) as BillingRunSummary;
  expect(summary.due).toBe(due.length);
  expect(new Set([...summary.charged, ...summary.notCharged].map((l) => l.contractId))).toEqual(new Set(due.map((c) => c.contractGid)));

  // Demo customers with a card succeed; those without a vaulted method are declined (dunning).
  await stack.settled(
    DEMO,
    async () => (await prisma.billingCycle.count({ where: { shopId: shop.id, status: { in: ["PAID", "DUNNING"] } } })) === summary.charged.length,
    30_000,
  );
  const paid = await prisma.billingCycle.findMany({ where: { shopId: shop.id, status: "PAID" }, select: { contractGid: true, cycleAt: true } });
  expect(paid.length).toBeGreaterThan(0);

  const { key } = await createKey({ shopId: shop.id, name: "demo billing", scopes: ["read:subscriptions"], kind: "SECRET" });
  for (const cycle of paid) {
    const res = await fetch(`${stack.appUrl}/api/admin/v1/subscriptions/${encodeURIComponent(cycle.contractGid)}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { next_billing_at: string };
    const platform = await stack.control.getContract(DEMO, cycle.contractGid);
    expect(new Date(body.next_billing_at).getTime()).toBe(new Date(platform.nextBillingDate).getTime());
    expect(new Date(body.next_billing_at).getTime()).toBeGreaterThan(cycle.cycleAt.getTime());
  }
}, 120_000);
