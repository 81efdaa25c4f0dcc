// The mail path under faults, with real processes (docs/decisions/101-mail-outbox.md): the mail
// worker is a real `workers/main.ts` process, the SMTP catcher is the real mailbox, Redis is real.
//   - the worker SIGKILLed mid-batch: another worker finishes, and every message is in the mailbox
//     exactly once: a message the dead worker was sending is settled by the relay's ledger
//     (docs/decisions/133-mail-in-doubt.md); without a ledger it is held, never sent twice;
//   - each in-doubt case on its own: accepted but not recorded, claimed but never handed over, no
//     ledger (held, then the merchant's resend), a ledger that cannot be asked;
//   - Redis loses the queue's keys mid-batch ("FLUSHALL" for this run's prefix only: the Redis
//     database is shared with other runs): the sweeper hands the rows back and each goes once;
//   - the SMTP server down for 60 s: messages are deferred, wait, and go when it is back.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { dispatchMail, queueMail, resendHeld } from "../../../app/domain/notifications/outbox.server";
import { requeueLostMail } from "../../../app/domain/notifications/sweep.server";
import { enqueue, QUEUES } from "../../../app/infra/queues.server";
import type { CaughtMessage } from "../../../mailbox/server";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { exited, startWorker, type WorkerProcess } from "../../support/processes";
import { eventually, eventuallyProgressing, useStack } from "../../support/stack";
import { useMailbox } from "../../support/mail";

const stack = useStack({ workersExcept: [QUEUES.mail] }, 120_000);
const box = useMailbox();
const workers: WorkerProcess[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});

const vars = {
  shop_name: "shop",
  contract_number: "1",
  product_title: "Tea",
  next_billing_date: "May 1, 2031",
  amount: "9.00 USD",
  manage_url: "https://x.test/account",
};
// The lease must outlast a live sender's slowest send (decision 101): 2 s did not on this loaded
// two-core machine (a stalled job ran again beside its slow first run and sent a second copy after
// the lease lapsed). 15 s does, and the killed worker's rows are retried once it lapses.
const mailWorker = (extraEnv: Record<string, string> = {}) => {
  const w = startWorker(QUEUES.mail, { MAIL_LEASE_MS: "15000", MAIL_SWEEP_GRACE_MS: "0", ...extraEnv });
  workers.push(w);
  return w;
};

/** N essential messages for one shop, queued in batches of 100 (one transaction each), each to its own address. */
async function queueBatch(shopId: string, n: number, tag: string) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = await prisma.$transaction(
      async (tx) => {
        const out = [];
        for (let j = i; j < Math.min(n, i + 100); j++) {
          out.push(
            await queueMail(tx, {
              shopId,
              kind: "payment_failed_final",
              customerGid: `gid://shopify/Customer/${j + 1}`,
              contractGid: `gid://shopify/SubscriptionContract/${j + 1}`,
              cycle: tag,
              vars,
              recipient: `${tag}-${j}@example.test`,
            }),
          );
        }
        return out;
        // 100 inserts in one transaction: on a loaded machine they outlast Prisma's 5 s default.
      },
      { timeout: 60_000 },
    );
    ids.push(...batch.map((q) => q!.id));
    await dispatchMail(batch);
  }
  return ids;
}

const caught = (tag: string): CaughtMessage[] => box.messages.filter((m) => m.envelopeTo[0]?.startsWith(`${tag}-`));
const settledCount = (ids: string[]) => prisma.notificationLogEntry.count({ where: { id: { in: ids }, status: { notIn: ["queued", "deferred"] } } });

function countsByRecipient(tag: string) {
  const by = new Map<string, CaughtMessage[]>();
  for (const m of caught(tag)) by.set(m.envelopeTo[0], [...(by.get(m.envelopeTo[0]) ?? []), m]);
  return by;
}

describe("mail under faults", () => {
  /** Kills a mail worker mid-batch and lets a second one finish; returns what the dead one held. */
  async function killMidBatch(tag: string, N: number, extraEnv: Record<string, string> = {}) {
    const { shopId } = await stack.installShop();
    const first = mailWorker(extraEnv);
    await first.ready;
    const ids = await queueBatch(shopId, N, tag);
    await eventually(async () => caught(tag).length >= 40, 30_000);
    const gone = exited(first);
    first.kill("SIGKILL");
    expect((await gone).signal).toBe("SIGKILL");
    // What the dead worker held: claimed (leased), not yet recorded as settled.
    const inFlight = new Set(
      (await prisma.notificationLogEntry.findMany({ where: { id: { in: ids }, status: "queued", leaseUntil: { not: null } }, select: { id: true } })).map(
        (r) => r.id,
      ),
    );
    expect(inFlight.size).toBeGreaterThan(0);
    expect(await settledCount(ids)).toBeLessThan(N);
    const second = mailWorker(extraEnv);
    await second.ready;
    await eventuallyProgressing(
      async () => (await settledCount(ids)) === N,
      () => settledCount(ids),
      60_000,
    );
    return { ids, inFlight };
  }

  it("the worker SIGKILLed mid-batch: another finishes, and every message is in the mailbox exactly once (the relay's ledger settles what the dead one was sending)", async () => {
    const tag = `kill${randomUUID().slice(0, 6)}`;
    const N = 400;
    const { ids } = await killMidBatch(tag, N);
    expect(await prisma.notificationLogEntry.count({ where: { id: { in: ids }, status: "sent" } })).toBe(N);
    const by = countsByRecipient(tag);
    expect(by.size).toBe(N);
    expect([...by.values()].filter((m) => m.length > 1).map((m) => m[0].envelopeTo[0])).toEqual([]);
  }, 120_000);

  it("without a ledger: what the dead worker was sending is held, never sent twice; the rest is sent once", async () => {
    const tag = `hold${randomUUID().slice(0, 6)}`;
    const N = 300;
    const { ids, inFlight } = await killMidBatch(tag, N, { MAIL_LEDGER_URL: "" });
    const rows = await prisma.notificationLogEntry.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, recipient: true } });
    const held = rows.filter((r) => r.status === "held");
    expect(held.length).toBeGreaterThan(0);
    expect(held.filter((r) => !inFlight.has(r.id))).toEqual([]);
    expect(rows.filter((r) => r.status !== "held" && r.status !== "sent")).toEqual([]);
    const by = countsByRecipient(tag);
    expect([...by.values()].filter((m) => m.length > 1).map((m) => m[0].envelopeTo[0])).toEqual([]);
    for (const r of rows) if (r.status === "sent") expect(by.get(r.recipient!)?.length, r.recipient!).toBe(1);
  }, 120_000);

  describe("one message in doubt (its last claim lapsed unsettled)", () => {
    /** One queued row, and a helper that makes it look like a sender died holding it. */
    async function oneRow(tag: string) {
      const { shopId } = await stack.installShop();
      const [q] = await queueBatch(shopId, 1, tag);
      const lapse = (status = "queued") =>
        prisma.notificationLogEntry.update({
          where: { id: q },
          data: { status, leaseUntil: new Date(Date.now() - 1000), sentAt: null, smtpResponse: null, attempts: { increment: 1 } },
        });
      return { id: q, lapse };
    }
    const rowOf = (id: string) => prisma.notificationLogEntry.findUniqueOrThrow({ where: { id } });
    // A fresh job for the row (a job id BullMQ has not seen: a finished job's id would be ignored).
    const kick = (id: string) => enqueue(QUEUES.mail, "send", { rowId: id }, { jobId: `mail-${id}-kick-${randomUUID()}` });

    it("accepted by SMTP but never recorded: the ledger says so, the row becomes sent, nothing is sent again", async () => {
      const tag = `acc${randomUUID().slice(0, 6)}`;
      const { id, lapse } = await oneRow(tag);
      const w = mailWorker();
      await w.ready;
      await kick(id);
      await eventually(async () => (await rowOf(id)).status === "sent", 30_000);
      await lapse(); // the crash after the 250 and before the `sent` commit
      await kick(id);
      const row = await eventually(async () => ((await rowOf(id)).status === "sent" ? rowOf(id) : null), 30_000);
      expect(row.smtpResponse).toMatch(/relay's ledger/);
      expect(row.leaseUntil).toBeNull();
      expect(caught(tag)).toHaveLength(1);
    }, 60_000);

    it("claimed but never handed over: the ledger has no such message, so it is sent now, once", async () => {
      const tag = `nev${randomUUID().slice(0, 6)}`;
      const { id, lapse } = await oneRow(tag);
      await lapse();
      const w = mailWorker();
      await w.ready;
      await kick(id);
      const row = await eventually(async () => ((await rowOf(id)).status === "sent" ? rowOf(id) : null), 30_000);
      expect(row.smtpResponse).toMatch(/^250/);
      expect(caught(tag)).toHaveLength(1);
    }, 60_000);

    it("no ledger: held with the reason, not sent; the merchant's resend sends it once, and a second resend does nothing", async () => {
      const tag = `hld${randomUUID().slice(0, 6)}`;
      const { id, lapse } = await oneRow(tag);
      await lapse();
      const w = mailWorker({ MAIL_LEDGER_URL: "" });
      await w.ready;
      await kick(id);
      const held = await eventually(async () => ((await rowOf(id)).status === "held" ? rowOf(id) : null), 30_000);
      expect(held.reason).toMatch(/may have been sent/);
      expect(caught(tag)).toEqual([]);
      const other = await stack.installShop();
      expect(await resendHeld(other.shopId, id)).toBe(false); // tenancy: another shop cannot resend it
      expect(await resendHeld(held.shopId, id)).toBe(true);
      await eventually(async () => (await rowOf(id)).status === "sent", 30_000);
      expect(caught(tag)).toHaveLength(1);
      expect(await resendHeld(held.shopId, id)).toBe(false);
    }, 60_000);

    it("a ledger that cannot be asked: deferred and still in doubt, sent once the ledger answers", async () => {
      const tag = `unr${randomUUID().slice(0, 6)}`;
      const { id, lapse } = await oneRow(tag);
      await lapse();
      const down = mailWorker({ MAIL_LEDGER_URL: "http://127.0.0.1:9/api/accepted" });
      await down.ready;
      await kick(id);
      const deferred = await eventually(async () => ((await rowOf(id)).status === "deferred" ? rowOf(id) : null), 30_000);
      expect(deferred.reason).toMatch(/mail ledger could not be asked/);
      expect(deferred.leaseUntil).not.toBeNull();
      expect(caught(tag)).toEqual([]);
      await down.stop();
      const up = mailWorker();
      await up.ready;
      await prisma.notificationLogEntry.update({ where: { id }, data: { sendAfter: new Date() } });
      await kick(id);
      await eventually(async () => (await rowOf(id)).status === "sent", 30_000);
      expect(caught(tag)).toHaveLength(1);
    }, 60_000);
  });

  it("Redis loses the queue mid-batch: the sweeper hands the rows back and each message goes exactly once", async () => {
    const { shopId } = await stack.installShop();
    const tag = `flush${randomUUID().slice(0, 6)}`;
    const N = 300;
    const w = mailWorker();
    await w.ready;
    const ids = await queueBatch(shopId, N, tag);
    await eventually(async () => caught(tag).length >= 30, 30_000);
    const redis = new Redis(env().REDIS_URL);
    try {
      expect(await deleteRedisPrefix(redis, env().REDIS_PREFIX)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
    // The sweeper's runs (what the "mail-requeue" schedule does every minute), until all settled.
    await eventuallyProgressing(
      async () => {
        await requeueLostMail(new Date(), 0);
        return (await settledCount(ids)) === N;
      },
      () => settledCount(ids),
      60_000,
    );
    const by = countsByRecipient(tag);
    expect(by.size).toBe(N);
    expect([...by.values()].filter((m) => m.length > 1).map((m) => m[0].envelopeTo[0])).toEqual([]);
  }, 120_000);

  it("the SMTP server down for 60 s: messages are deferred and wait, then go once it is back", async () => {
    const { shopId } = await stack.installShop();
    const tag = `down${randomUUID().slice(0, 6)}`;
    const w = mailWorker();
    await w.ready;
    await box.stopSmtp();
    const downAt = Date.now();
    try {
      const ids = await queueBatch(shopId, 20, tag);
      await eventually(async () => (await prisma.notificationLogEntry.count({ where: { id: { in: ids }, status: "deferred" } })) === 20, 30_000);
      const deferred = await prisma.notificationLogEntry.findFirstOrThrow({ where: { id: ids[0] } });
      expect(deferred.reason).toMatch(/ECONNREFUSED|connect/i);
      // The outage lasts a minute (the scenario, not a wait for a signal).
      await new Promise((r) => setTimeout(r, Math.max(0, 60_000 - (Date.now() - downAt))));
      expect(caught(tag)).toEqual([]);
      expect(await prisma.notificationLogEntry.count({ where: { id: { in: ids }, status: "failed" } })).toBe(0);
      await box.startSmtp();
      await eventually(async () => (await prisma.notificationLogEntry.count({ where: { id: { in: ids }, status: "sent" } })) === 20, 90_000);
      expect(countsByRecipient(tag).size).toBe(20);
      expect(caught(tag)).toHaveLength(20);
    } finally {
      await box.startSmtp();
    }
  }, 200_000);
});
