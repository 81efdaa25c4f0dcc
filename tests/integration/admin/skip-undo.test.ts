// The detail page's history and undo of a skip (docs/decisions/152-skip-undo.md), against the real
// simulator and PostgreSQL: a skip shows in the history with the dates it moved between and who
// made it; undo puts the next charge back once; anything that moved the date since closes it; item
// edits show in the history too.
import { prisma } from "../../../app/db.server";
import { withActor } from "../../../app/infra/actor.server";
import { subscriptionHistory, undoableSkip } from "../../../app/domain/subscriptions/history.server";
import { findOwnedContract } from "../../../app/domain/subscriptions/reads.server";
import { rescheduleSubscription, skipSubscription, undoSkip, updateSubscriptionLine, type WriteContext } from "../../../app/domain/subscriptions/writes.server";
import type { RunningSimulator } from "../../../simulator/server";
import { seedContract, seedWriteShop, sim, startTestSimulator } from "../../support/admin-sim";

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startTestSimulator();
});
afterAll(async () => {
  await simulator?.close();
});

const staff = { type: "staff" as const, id: "77" };
const DAY = 86_400_000;

async function setUp() {
  const s = await seedWriteShop(simulator.url);
  const next = new Date(Math.floor(Date.now() / 1000) * 1000 + 5 * DAY);
  const c = await seedContract(simulator.url, s, { nextBillingDate: next.toISOString(), quantity: 2 });
  const ctx: WriteContext = { shopId: s.shop.id, shopDomain: s.shop.domain, contractGid: c.gid };
  return { s, c, ctx, next };
}

const simNextBilling = async (domain: string, gid: string) =>
  (await sim(simulator.url, "GET", `/shops/${domain}/contracts/${encodeURIComponent(gid)}`)).nextBillingDate as string;

describe("skip history and undo", () => {
  it("a staff skip is in the history with both dates; undo puts the charge back once", async () => {
    const { s, c, ctx, next } = await setUp();
    const skipped = await withActor(staff, () => skipSubscription(ctx));
    // A monthly plan: one month later.
    expect(skipped.nextBillingAt!.getTime()).toBeGreaterThan(next.getTime() + 27 * DAY);

    const history = await subscriptionHistory(s.shop.id, c.gid);
    expect(history[0]).toMatchObject({
      type: "subscription.skip",
      actor: "staff",
      next_charge: { before: next.toISOString(), after: skipped.nextBillingAt!.toISOString() },
    });
    const owned = await findOwnedContract(s.shop.id, c.gid);
    expect(await undoableSkip(s.shop.id, owned!)).toEqual({ restoreTo: next });

    const undone = await withActor(staff, () => undoSkip(ctx));
    expect(undone.nextBillingAt?.toISOString()).toBe(next.toISOString());
    expect(new Date(await simNextBilling(s.shop.domain, c.gid)).toISOString()).toBe(next.toISOString());
    expect((await subscriptionHistory(s.shop.id, c.gid))[0]).toMatchObject({
      type: "subscription.skip_undone",
      next_charge: { before: skipped.nextBillingAt!.toISOString(), after: next.toISOString() },
    });

    // Undone once: a second undo is refused and moves nothing.
    await expect(withActor(staff, () => undoSkip(ctx))).rejects.toMatchObject({ code: "state_conflict" });
    expect(new Date(await simNextBilling(s.shop.domain, c.gid)).toISOString()).toBe(next.toISOString());
    const failures = await prisma.auditEvent.count({ where: { shopId: s.shop.id, action: "subscription.skip_undone", outcome: "failure" } });
    expect(failures).toBe(1);
  });

  it("a reschedule after the skip closes the undo", async () => {
    const { s, c, ctx, next } = await setUp();
    await skipSubscription(ctx);
    await rescheduleSubscription({ ...ctx, nextBillingAt: new Date(next.getTime() + 10 * DAY) });
    const owned = await findOwnedContract(s.shop.id, c.gid);
    expect(await undoableSkip(s.shop.id, owned!)).toBeNull();
    await expect(undoSkip(ctx)).rejects.toMatchObject({ code: "state_conflict" });
  });

  it("a date moved outside the app (a renewal, Shopify admin) closes the undo", async () => {
    const { s, c, ctx } = await setUp();
    await skipSubscription(ctx);
    const elsewhere = new Date(Date.now() + 90 * DAY);
    await prisma.contract.update({ where: { shopId_contractGid: { shopId: s.shop.id, contractGid: c.gid } }, data: { nextBillingAt: elsewhere } });
    expect(await undoableSkip(s.shop.id, (await findOwnedContract(s.shop.id, c.gid))!)).toBeNull();
  });

  it("a skipped date that has passed cannot be restored", async () => {
    const { s, c, ctx, next } = await setUp();
    await skipSubscription(ctx);
    const owned = (await findOwnedContract(s.shop.id, c.gid))!;
    expect(await undoableSkip(s.shop.id, owned, new Date(next.getTime() - 1000))).not.toBeNull();
    expect(await undoableSkip(s.shop.id, owned, new Date(next.getTime() + 1000))).toBeNull();
  });

  it("item edits show in the history; a variant the plan does not sell is refused and changes nothing", async () => {
    const { s, c, ctx } = await setUp();
    await withActor(staff, () => updateSubscriptionLine({ ...ctx, lineGid: c.lineGid, change: { quantity: 3 } }));
    expect((await subscriptionHistory(s.shop.id, c.gid))[0]).toMatchObject({
      type: "subscription.update_line",
      actor: "staff",
      quantity: { before: 2, after: 3 },
    });
    await expect(updateSubscriptionLine({ ...ctx, lineGid: c.lineGid, change: { variantId: s.variants.outside } })).rejects.toMatchObject({
      code: "invalid_request",
    });
    // By shop too: another test file's simulator can hand out the same line gid in this database.
    const line = await prisma.contractLine.findFirstOrThrow({ where: { lineGid: c.lineGid, contract: { shopId: s.shop.id } } });
    expect(line.variantGid).toBe(s.variants.inGroup);
    // Failed attempts stay in the audit log, not the merchant's history.
    expect((await subscriptionHistory(s.shop.id, c.gid)).filter((h) => h.type === "subscription.update_line")).toHaveLength(1);
  });

  it("another shop's audit rows never enter the history", async () => {
    const a = await setUp();
    const b = await setUp();
    await skipSubscription(b.ctx);
    expect((await subscriptionHistory(a.s.shop.id, b.c.gid)).length).toBe(0);
  });
});
