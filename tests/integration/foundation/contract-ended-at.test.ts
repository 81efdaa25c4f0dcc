// When a contract ended (docs/decisions/041-contract-ended-at.md): the mirror records the
// platform's time of the change to CANCELLED, EXPIRED or FAILED from the inbound
// subscription_contracts webhooks (and reconciles), keeps it while the contract stays ended, and
// clears it on reactivation. Real simulator, real HTTP webhooks, real BullMQ workers.
import { prisma } from "../../../app/db.server";
import { upsertContract } from "../../../app/domain/subscriptions/mirror.server";
import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { platformFor } from "../../../app/platform/index.server";
import { eventually, useStack } from "../../support/stack";

const stack = useStack();

type SimContract = { id: string; status: string; updatedAt: string; revisionId: number };

const mirrorOf = (domain: string, gid: string) => prisma.contract.findFirst({ where: { shop: { domain }, contractGid: gid } });
const simContract = (domain: string, gid: string) =>
  stack.control.call<SimContract>("GET", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(gid)}`);

describe("contract ended_at", () => {
  it("is the platform's time of the cancel, kept while ended, cleared on reactivation, set again on a billing failure", async () => {
    const { domain } = await stack.installShop();
    const created = await stack.control.call<SimContract>("POST", `${stack.control.shop(domain)}/contracts`, {});
    await stack.settled(domain, async () => (await mirrorOf(domain, created.id))?.status === "ACTIVE");
    expect((await mirrorOf(domain, created.id))!.endedAt).toBeNull();

    const platform = await platformFor(domain);
    await platform.cancelContract(created.id);
    const cancelled = await simContract(domain, created.id);
    const ended = await stack.settled(domain, async () => {
      const row = await mirrorOf(domain, created.id);
      return row?.status === "CANCELLED" && row.endedAt ? row : null;
    });
    expect(ended.endedAt!.toISOString()).toBe(new Date(cancelled.updatedAt).toISOString());

    // A later change to an ended contract (EXPIRED after CANCELLED) keeps the end where it was.
    await new Promise((r) => setTimeout(r, 20));
    await stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(created.id)}`, { status: "EXPIRED" });
    const expired = await stack.settled(domain, async () => {
      const row = await mirrorOf(domain, created.id);
      return row?.status === "EXPIRED" ? row : null;
    });
    expect(expired.endedAt!.toISOString()).toBe(ended.endedAt!.toISOString());
    expect(expired.updatedAt.getTime()).toBeGreaterThan(ended.endedAt!.getTime());

    // Reactivated: live again, no end.
    await stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(created.id)}`, { status: "ACTIVE" });
    await stack.settled(domain, async () => {
      const row = await mirrorOf(domain, created.id);
      return row?.status === "ACTIVE" && row.endedAt === null;
    });

    // Billing failed: ended again, at the time of that change.
    await stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(created.id)}`, { status: "FAILED" });
    const failed = await stack.settled(domain, async () => {
      const row = await mirrorOf(domain, created.id);
      return row?.status === "FAILED" && row.endedAt ? row : null;
    });
    expect(failed.endedAt!.toISOString()).toBe(new Date((await simContract(domain, created.id)).updatedAt).toISOString());
    expect(failed.endedAt!.getTime()).toBeGreaterThan(ended.endedAt!.getTime());
  });

  it("a contract first seen ended (reconcile) ended at its last platform update; pausing is not ending", async () => {
    const { domain, shopId } = await stack.installShop();
    const when = new Date(Date.now() - 40 * 86_400_000);
    const old = await stack.control.call<SimContract>("POST", `${stack.control.shop(domain)}/contracts`, {
      status: "CANCELLED",
      createdAt: new Date(Date.now() - 200 * 86_400_000).toISOString(),
      updatedAt: when.toISOString(),
      webhooks: false,
    });
    const paused = await stack.control.call<SimContract>("POST", `${stack.control.shop(domain)}/contracts`, { status: "PAUSED", webhooks: false });
    await reconcileShop(domain);
    expect((await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: old.id } })).endedAt?.toISOString()).toBe(when.toISOString());
    expect((await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: paused.id } })).endedAt).toBeNull();
  });
});

describe("a new contract's snapshots racing", () => {
  it("two transactions mirroring the same new contract at once make one row: the second waits on the first's insert, then applies as an update", async () => {
    const { domain, shopId } = await stack.installShop();
    const sim = await stack.control.call<SimContract>("POST", `${stack.control.shop(domain)}/contracts`, { webhooks: false });
    const snapshot = (await (await platformFor(domain)).getContract(sim.id))!;

    // The first transaction inserts and holds its transaction open; the second then finds no
    // committed row and reaches its own insert, which waits on the first's uncommitted key.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstInserted!: () => void;
    const inserted = new Promise<void>((r) => (firstInserted = r));
    const first = prisma.$transaction(
      async (tx) => {
        const previous = await upsertContract(tx, shopId, snapshot);
        firstInserted();
        await held;
        return previous;
      },
      { timeout: 60_000 },
    );
    await inserted;
    const second = prisma.$transaction((tx) => upsertContract(tx, shopId, snapshot), { timeout: 60_000 });
    await eventually(async () => {
      const [{ n }] = await prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      return n > 0;
    });
    release();
    expect(await first).toBeNull(); // created
    expect(await second).toBe("ACTIVE"); // found the row the first wrote
    expect(await prisma.contract.count({ where: { shopId, contractGid: sim.id } })).toBe(1);
    const row = await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: sim.id }, include: { lines: true } });
    expect(row.lines.length).toBe(snapshot.lines.length);
  });
});
