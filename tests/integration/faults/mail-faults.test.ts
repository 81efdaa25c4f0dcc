// The mail path under faults, with real processes (docs/decisions/101-mail-outbox.md): the mail
// worker is a real `workers/main.ts` process, the SMTP catcher is the real mailbox, Redis is real.
//   - the worker SIGKILLed mid-batch: another worker finishes, and every message is in the mailbox
//     once; the only messages that may appear twice are those the dead worker had claimed when it
//     died (the documented window between SMTP accept and the `sent` commit), and a repeat carries
//     the same Message-ID;
//   - Redis loses the queue's keys mid-batch ("FLUSHALL" for this run's prefix only: the Redis
//     database is shared with other runs): the sweeper hands the rows back and each goes once;
//   - the SMTP server down for 60 s: messages are deferred, wait, and go when it is back.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { dispatchMail, queueMail } from "../../../app/domain/notifications/outbox.server";
import { requeueLostMail } from "../../../app/domain/notifications/sweep.server";
import { QUEUES } from "../../../app/infra/queues.server";
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
const mailWorker = () => {
  const w = startWorker(QUEUES.mail, { MAIL_LEASE_MS: "15000", MAIL_SWEEP_GRACE_MS: "0" });
  workers.push(w);
  return w;
};

/** N essential messages for one shop, queued in batches of 100 (one transaction each), each to its own address. */
async function queueBatch(shopId: string, n: number, tag: string) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = await prisma.$transaction(async (tx) => {
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
    });
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
  it("the worker SIGKILLed mid-batch: another finishes; each message is in the mailbox once, a repeat only where the dead worker held the claim, with the same Message-ID", async () => {
    const { shopId } = await stack.installShop();
    const tag = `kill${randomUUID().slice(0, 6)}`;
    const N = 400;
    const first = mailWorker();
    await first.ready;
    const ids = await queueBatch(shopId, N, tag);
    await eventually(async () => caught(tag).length >= 40, 30_000);
    const gone = exited(first);
    first.kill("SIGKILL");
    expect((await gone).signal).toBe("SIGKILL");
    // What the dead worker held: claimed (leased), not yet recorded as settled.
    const inFlight = new Set(
      (
        await prisma.notificationLogEntry.findMany({ where: { id: { in: ids }, status: "queued", leaseUntil: { not: null } }, select: { recipient: true } })
      ).map((r) => r.recipient!),
    );
    expect(await settledCount(ids)).toBeLessThan(N);

    const second = mailWorker();
    await second.ready;
    await eventuallyProgressing(
      async () => (await settledCount(ids)) === N,
      () => settledCount(ids),
      60_000,
    );
    expect(await prisma.notificationLogEntry.count({ where: { id: { in: ids }, status: "sent" } })).toBe(N);
    const by = countsByRecipient(tag);
    expect(by.size).toBe(N);
    for (const [to, msgs] of by) {
      if (msgs.length === 1) continue;
      expect(inFlight.has(to), `${to} arrived ${msgs.length} times but was not in flight at the kill`).toBe(true);
      expect(msgs.length).toBe(2);
      expect(new Set(msgs.map((m) => m.messageId)).size).toBe(1);
    }
  }, 120_000);

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
