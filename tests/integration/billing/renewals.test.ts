// The billing engine against the simulator (docs/decisions/080-082): the app, the simulator and
// real BullMQ workers in-process; the scheduler runs as the CLI runs it, with a fixed clock, so
// time moves without sleeping. Billing-attempt outcomes come back as signed webhooks.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { billingAttemptPayload } from "../../../simulator/subscription-billing";
import { fixedClock } from "../../../app/domain/renewals/clock.server";
import { billingIdempotencyKey, runBilling } from "../../../app/domain/renewals/charge.server";
import { queueBillingRuns } from "../../../app/domain/renewals/jobs.server";
import { saveBillingPolicy } from "../../../app/domain/renewals/policy.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import { eventsOf, mirrorOf, seedDueContract, simAttempts } from "../../support/billing-factories";
import { postShopifyWebhook } from "../../support/shopify-webhooks";
import { eventually, useStack } from "../../support/stack";

const stack = useStack({}, 120_000);

const DAY = 86_400_000;
const at = (iso: string, plusMs = 0) => fixedClock(new Date(new Date(iso).getTime() + plusMs));
const run = (domain: string, iso: string, plusMs = 0) => runBilling(domain, { clock: at(iso, plusMs) });

/** A webhook signed as Shopify signs it (a wrong `secret` to test the refusal). */
const postWebhook = (topic: string, domain: string, payload: object, opts: { webhookId?: string; secret?: string } = {}) =>
  postShopifyWebhook(stack.appUrl, topic, domain, payload, opts);

/** Waits until the contract's billing cycle at `cycleAt` reaches one of `statuses`. */
async function cycleReaches(domain: string, contractGid: string, cycleAt: string, statuses: string[]) {
  return stack.settled(domain, async () => {
    const cycle = await prisma.billingCycle.findFirst({ where: { contractGid, cycleAt: new Date(cycleAt) } });
    return cycle && statuses.includes(cycle.status) ? cycle : null;
  });
}

describe("charging", () => {
  it("a due contract is charged once even when four runs happen at once and again after: one attempt, one subscription.renewed, next_billing_at one interval on", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-01-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, price: "24.00" });

    // Four runs at once: their claims race on the same attempt row (a run that lost the insert
    // must still find the row the winner made, not fail).
    const runs = await Promise.all([1, 2, 3, 4].map(() => run(domain, due, 3600_000)));
    expect(runs.reduce((n, r) => n + r.charged.length, 0)).toBeGreaterThanOrEqual(1);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
    const third = await run(domain, due, 2 * 3600_000);
    expect(third.charged).toEqual([]);

    const attempts = await simAttempts(stack.control, domain, c.gid);
    expect(attempts).toHaveLength(1);
    expect(attempts[0].idempotencyKey).toBe(billingIdempotencyKey(c.gid, new Date(due), 1));
    const renewed = await eventsOf(shopId, "subscription.renewed", c.gid);
    expect(renewed).toHaveLength(1);
    expect(renewed[0].data).toMatchObject({
      contract_id: c.gid,
      customer_id: c.customerGid,
      billing_attempt_id: attempts[0].id,
      amount: { amount: "24.00", currency_code: "USD" },
      next_billing_at: "2031-02-10T00:00:00.000Z",
    });
    expect((await mirrorOf(shopId, c.gid)).nextBillingAt?.toISOString()).toBe("2031-02-10T00:00:00.000Z");
  });

  it("the queued path: the scheduler's billing-run job charges what is due, and adding it twice runs it once", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = new Date(Date.now() - 2 * DAY).toISOString();
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    await Promise.all([queueBillingRuns([domain]), queueBillingRuns([domain])]);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
    expect(await simAttempts(stack.control, domain, c.gid)).toHaveLength(1);
    await stack.settled(domain, async () => (await eventsOf(shopId, "subscription.renewed", c.gid)).length === 1);
    expect(await queue(QUEUES.billing).getJob(`billing-run-${domain}`)).toBeUndefined();
  });

  it("an anchored plan bills on its anchors: a charge on the 20th moves next_billing_at to the 1st of the next month", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-01-20T09:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, anchors: [{ day: 1, type: "MONTHDAY" }] });
    await run(domain, due, 60_000);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
    expect((await mirrorOf(shopId, c.gid)).nextBillingAt?.toISOString()).toBe("2031-02-01T09:00:00.000Z");
    const [renewed] = await eventsOf(shopId, "subscription.renewed", c.gid);
    expect(renewed.data.next_billing_at).toBe("2031-02-01T09:00:00.000Z");
  });

  it("a contract not yet due is not charged, and paused or cancelled contracts are never charged", async () => {
    const { domain } = await stack.installShop();
    const due = "2031-03-01T00:00:00.000Z";
    const later = await seedDueContract(stack.control, domain, { nextBillingDate: "2031-03-02T00:00:00.000Z" });
    const paused = await seedDueContract(stack.control, domain, { nextBillingDate: due, status: "PAUSED" });
    const cancelled = await seedDueContract(stack.control, domain, { nextBillingDate: due, status: "CANCELLED" });
    const summary = await run(domain, due, 3600_000);
    expect(summary.due).toBe(0);
    for (const c of [later, paused, cancelled]) expect(await simAttempts(stack.control, domain, c.gid)).toEqual([]);
  });

  it("a contract paused on Shopify behind the mirror's back is refused there, nothing is charged, and the mirror catches up", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-03-05T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    await stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(c.gid)}`, { status: "PAUSED", webhooks: false });
    const summary = await run(domain, due, 3600_000);
    expect(summary.notCharged).toMatchObject([{ contractId: c.gid, outcome: "refused" }]);
    expect(summary.notCharged[0].detail).toContain("CONTRACT_PAUSED");
    expect(await simAttempts(stack.control, domain, c.gid)).toEqual([]);
    expect((await mirrorOf(shopId, c.gid)).status).toBe("PAUSED");
    expect((await run(domain, due, 2 * 3600_000)).due).toBe(0);
  });

  it("a run whose claim loses the race to a concurrent run's uncommitted claim reads that row back and asks Shopify with the same key", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-03-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    const contract = await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: c.gid }, select: { id: true } });
    const key = billingIdempotencyKey(c.gid, new Date(due), 1);
    // The other runner's claim, held open: the run's INSERT ... ON CONFLICT waits on it, and once
    // it commits the row is there but outside the run's statement snapshot.
    const other = new pg.Client({ connectionString: env().DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO billing_cycles (id, shop_id, contract_id, contract_gid, cycle_at, status, attempts, updated_at)
         VALUES ('race-cycle', $1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', 'CHARGING', 1, now())`,
        [shopId, contract.id, c.gid, due],
      );
      await other.query(
        `INSERT INTO billing_attempts (id, shop_id, cycle_id, number, idempotency_key, amount_minor, currency_code)
         VALUES ('race-attempt', $1, 'race-cycle', 1, $2, 2400, 'USD')`,
        [shopId, key],
      );
      const running = run(domain, due, 3600_000);
      await eventually(async () => {
        const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))");
        return rows[0].n > 0 ? true : null;
      });
      await other.query("COMMIT");
      const summary = await running;
      expect(summary.charged.map((l) => l.idempotencyKey)).toEqual([key]);
    } finally {
      await other.end();
    }
    const attempts = await simAttempts(stack.control, domain, c.gid);
    expect(attempts.map((a) => a.idempotencyKey)).toEqual([key]);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
  });

  it("a cycle settled while a run was claiming it stays settled: the claim does not put it back to CHARGING", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-03-11T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    const contract = await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: c.gid }, select: { id: true } });
    const key = billingIdempotencyKey(c.gid, new Date(due), 1);
    // What a run killed after its claim leaves: the cycle CHARGING, attempt 1 claimed, never confirmed.
    await prisma.$executeRawUnsafe(
      `INSERT INTO billing_cycles (id, shop_id, contract_id, contract_gid, cycle_at, status, attempts, updated_at)
       VALUES ('settle-cycle', $1, $2, $3, $4::timestamptz AT TIME ZONE 'UTC', 'CHARGING', 1, now())`,
      shopId,
      contract.id,
      c.gid,
      due,
    );
    await prisma.$executeRawUnsafe(
      `INSERT INTO billing_attempts (id, shop_id, cycle_id, number, idempotency_key, amount_minor, currency_code)
       VALUES ('settle-attempt', $1, 'settle-cycle', 1, $2, 2400, 'USD')`,
      shopId,
      key,
    );
    // That attempt's success settling the cycle, held open: the run still reads the cycle as
    // CHARGING and plans attempt 1 again, and its claim waits on the row until the success commits.
    const other = new pg.Client({ connectionString: env().DATABASE_URL });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`UPDATE billing_attempts SET status = 'SUCCEEDED', completed_at = now() WHERE id = 'settle-attempt'`);
      await other.query(`UPDATE billing_cycles SET status = 'PAID' WHERE id = 'settle-cycle'`);
      const running = run(domain, due, 3600_000);
      await eventually(async () => {
        const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))");
        return rows[0].n > 0 ? true : null;
      });
      await other.query("COMMIT");
      await running;
    } finally {
      await other.end();
    }
    expect((await prisma.billingCycle.findUniqueOrThrow({ where: { id: "settle-cycle" }, select: { status: true } })).status).toBe("PAID");
    // Shopify was asked with the same key only: one attempt.
    expect((await simAttempts(stack.control, domain, c.gid)).map((a) => a.idempotencyKey)).toEqual([key]);
  });

  it("THROTTLED answers back off and retry: the contract is still charged exactly once", async () => {
    const { domain } = await stack.installShop();
    const due = "2031-03-07T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    await stack.control.failNext(domain, { operation: "subscriptionBillingAttemptCreate", throttled: 2 });
    await stack.control.failNext(domain, {
      operation: "subscriptionBillingAttemptCreate",
      userErrors: [{ field: null, message: "Too many billing attempts", code: "THROTTLED" }],
    });
    const summary = await run(domain, due, 3600_000);
    expect(summary.charged).toMatchObject([{ contractId: c.gid, attempt: 1 }]);
    expect((await stack.control.operations(domain, { operation: "subscriptionBillingAttemptCreate", outcome: "throttled" })).length).toBe(2);
    expect(await simAttempts(stack.control, domain, c.gid)).toHaveLength(1);
  });
});

describe("dunning", () => {
  it("a decline publishes payment_failed, retries on the policy's schedule, and recovers: payment_recovered, no renewed", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-04-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, billing: "CARD_DECLINED" });

    await run(domain, due, 3600_000);
    await cycleReaches(domain, c.gid, due, ["DUNNING"]);
    const [failed] = await eventsOf(shopId, "subscription.payment_failed", c.gid);
    expect(failed.data).toMatchObject({
      error_code: "CARD_DECLINED",
      next_retry_at: "2031-04-11T00:00:00.000Z",
      amount: { amount: "24.00", currency_code: "USD" },
    });

    // Before the first retry's day nothing is charged; on it, attempt 2 (still declined).
    expect((await run(domain, due, 12 * 3600_000)).charged).toEqual([]);
    expect((await run(domain, due, DAY + 3600_000)).charged).toMatchObject([{ attempt: 2 }]);
    await stack.settled(domain, async () => (await eventsOf(shopId, "subscription.payment_failed", c.gid)).length === 2);
    expect((await eventsOf(shopId, "subscription.payment_failed", c.gid))[1].data.next_retry_at).toBe("2031-04-13T00:00:00.000Z");

    // The customer replaces the card; the retry on day 3 succeeds.
    await stack.control.call("PATCH", `${stack.control.shop(domain)}/payment-methods/${encodeURIComponent(c.paymentMethodGid)}`, { billing: "succeed" });
    expect((await run(domain, due, 3 * DAY + 3600_000)).charged).toMatchObject([{ attempt: 3 }]);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
    const recovered = await eventsOf(shopId, "subscription.payment_recovered", c.gid);
    expect(recovered).toHaveLength(1);
    expect(recovered[0].data).toMatchObject({ contract_id: c.gid, amount: { amount: "24.00", currency_code: "USD" } });
    expect(await eventsOf(shopId, "subscription.renewed", c.gid)).toEqual([]);
    expect((await mirrorOf(shopId, c.gid)).nextBillingAt?.toISOString()).toBe("2031-05-10T00:00:00.000Z");
    expect((await simAttempts(stack.control, domain, c.gid)).map((a) => a.outcome)).toEqual(["failure", "failure", "success"]);
  });

  it("the default policy (1, 3, 7 days, then pause): four declined attempts, then Shopify pauses the contract and subscription.paused follows", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-05-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, billing: "INSUFFICIENT_FUNDS" });
    for (const [i, day] of [0, 1, 3, 7].entries()) {
      expect((await run(domain, due, day * DAY + 3600_000)).charged).toMatchObject([{ attempt: i + 1 }]);
      await stack.settled(domain, async () => (await eventsOf(shopId, "subscription.payment_failed", c.gid)).length === i + 1);
    }
    const failures = await eventsOf(shopId, "subscription.payment_failed", c.gid);
    expect(failures.map((f) => f.data.next_retry_at)).toEqual(["2031-05-11T00:00:00.000Z", "2031-05-13T00:00:00.000Z", "2031-05-17T00:00:00.000Z", null]);
    await stack.settled(domain, async () => (await stack.control.getContract(domain, c.gid)).status === "PAUSED");
    await stack.settled(domain, async () => (await eventsOf(shopId, "subscription.paused", c.gid)).length === 1);
    expect((await mirrorOf(shopId, c.gid)).status).toBe("PAUSED");
    expect((await run(domain, due, 30 * DAY)).charged).toEqual([]);
    expect(await simAttempts(stack.control, domain, c.gid)).toHaveLength(4);
  });

  it("a merchant's policy with one retry and cancel: the retry's decline cancels the contract on Shopify", async () => {
    const { domain, shopId } = await stack.installShop();
    expect((await saveBillingPolicy(shopId, { retryDays: [2], finalAction: "CANCEL", reminderDays: 0 })).ok).toBe(true);
    const due = "2031-06-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, billing: "EXPIRED_PAYMENT_METHOD" });
    await run(domain, due, 3600_000);
    await cycleReaches(domain, c.gid, due, ["DUNNING"]);
    expect((await run(domain, due, DAY + 3600_000)).charged).toEqual([]);
    await run(domain, due, 2 * DAY + 3600_000);
    await cycleReaches(domain, c.gid, due, ["FAILED"]);
    await stack.settled(domain, async () => (await eventsOf(shopId, "subscription.cancelled", c.gid)).length === 1);
    expect((await stack.control.getContract(domain, c.gid)).status).toBe("CANCELLED");
    expect((await eventsOf(shopId, "subscription.payment_failed", c.gid)).map((e) => e.data.error_code)).toEqual([
      "EXPIRED_PAYMENT_METHOD",
      "EXPIRED_PAYMENT_METHOD",
    ]);
  });

  it("a charge that needs authentication is challenged: payment_failed with AUTHENTICATION_REQUIRED and a retry scheduled", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-06-20T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, billing: "authenticate" });
    await run(domain, due, 3600_000);
    const cycle = await cycleReaches(domain, c.gid, due, ["DUNNING"]);
    expect(cycle.lastErrorCode).toBe("AUTHENTICATION_REQUIRED");
    const [failed] = await eventsOf(shopId, "subscription.payment_failed", c.gid);
    expect(failed.data).toMatchObject({ error_code: "AUTHENTICATION_REQUIRED", next_retry_at: "2031-06-21T00:00:00.000Z" });
  });
});

describe("outcome webhooks", () => {
  it("a replayed success webhook moves nothing twice: one event, one gift charge", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-07-01T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    const mirror = await prisma.contract.findUniqueOrThrow({ where: { shopId_contractGid: { shopId, contractGid: c.gid } } });
    const gift = await prisma.gift.create({ data: { shopId, contractId: mirror.id, kind: "PREPAID", status: "CLAIMED", prepaidCharges: 2, chargesRun: 1 } });
    await run(domain, due, 3600_000);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
    await stack.settled(domain, async () => (await eventsOf(shopId, "gift.ended")).length === 1);

    // Shopify delivers the same attempt's webhook again (a new delivery, a new webhook id).
    const [attempt] = await simAttempts(stack.control, domain, c.gid);
    const before = await prisma.event.count({ where: { shopId } });
    const webhookId = randomUUID();
    expect((await postWebhook("subscription_billing_attempts/success", domain, billingAttemptPayload(attempt), { webhookId })).status).toBe(200);
    // The very same delivery again (same X-Shopify-Webhook-Id) is deduplicated at the door.
    expect((await postWebhook("subscription_billing_attempts/success", domain, billingAttemptPayload(attempt), { webhookId })).status).toBe(200);
    expect(await prisma.inboundWebhook.count({ where: { webhookId } })).toBe(1);
    await eventually(
      async () =>
        (await prisma.inboundWebhook.count({ where: { shopDomain: domain, topic: "subscription_billing_attempts/success", processedAt: { not: null } } })) ===
        2,
    );
    expect(await prisma.event.count({ where: { shopId } })).toBe(before);
    const after = await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } });
    expect(after).toMatchObject({ status: "ENDED", chargesRun: 2 });
    const [ended] = await eventsOf(shopId, "gift.ended");
    expect(ended.data).toMatchObject({ gift_id: gift.id, contract_id: c.gid });
  });

  it("an outcome whose webhook never came is read from Shopify once it is an hour overdue: renewed once, and the mirror moves", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-07-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    // Shopify charges, but none of the webhooks of that call reaches the app.
    await stack.control.failNext(domain, { operation: "subscriptionBillingAttemptCreate", webhooksLost: true });
    expect((await run(domain, due, 3600_000)).charged).toHaveLength(1);
    const [made] = await simAttempts(stack.control, domain, c.gid);
    expect(made.outcome).toBe("success");
    const attempt = await prisma.billingAttempt.findFirstOrThrow({ where: { shopId } });
    expect(attempt).toMatchObject({ status: "PENDING", attemptGid: made.id });

    // Within the hour the webhook may still come: nothing is read, nothing moves.
    expect((await run(domain, due, 2 * 3600_000)).overdueSettled).toBe(0);
    expect(await prisma.billingCycle.findFirstOrThrow({ where: { shopId } })).toMatchObject({ status: "CHARGING" });
    const reads = () => stack.control.operations(domain, { operation: "subscriptionBillingAttempt" });
    expect(await reads()).toEqual([]);

    // An hour and more after the attempt was made (its row aged, as time would), the run reads it.
    await prisma.billingAttempt.update({ where: { id: attempt.id }, data: { createdAt: new Date(Date.now() - 61 * 60_000) } });
    const summary = await run(domain, due, 3 * 3600_000);
    expect(summary).toMatchObject({ overdueSettled: 1, charged: [] });
    expect(await reads()).toHaveLength(1);
    expect(await prisma.billingCycle.findFirstOrThrow({ where: { shopId } })).toMatchObject({ status: "PAID" });
    expect((await mirrorOf(shopId, c.gid)).nextBillingAt?.toISOString()).toBe("2031-08-10T00:00:00.000Z");
    const renewed = await eventsOf(shopId, "subscription.renewed", c.gid);
    expect(renewed.map((e) => e.data)).toMatchObject([{ billing_attempt_id: made.id, order_id: made.orderId }]);

    // The webhook turns up after all: it moves nothing twice.
    expect((await postWebhook("subscription_billing_attempts/success", domain, billingAttemptPayload(made))).status).toBe(200);
    const late = { shopDomain: domain, topic: "subscription_billing_attempts/success", processedAt: { not: null } };
    await eventually(async () => (await prisma.inboundWebhook.count({ where: late })) === 1);
    expect(await eventsOf(shopId, "subscription.renewed", c.gid)).toHaveLength(1);
    expect((await run(domain, due, 4 * 3600_000)).overdueSettled).toBe(0);
    expect(await reads()).toHaveLength(1);
  });

  it("an overdue decline is read with its error code: payment_failed and dunning, as from the webhook", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-07-20T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due, billing: "INSUFFICIENT_FUNDS" });
    await stack.control.failNext(domain, { operation: "subscriptionBillingAttemptCreate", webhooksLost: true });
    await run(domain, due, 3600_000);
    await prisma.billingAttempt.updateMany({ where: { shopId }, data: { createdAt: new Date(Date.now() - 2 * 3600_000) } });
    expect((await run(domain, due, 2 * 3600_000)).overdueSettled).toBe(1);
    expect(await prisma.billingCycle.findFirstOrThrow({ where: { shopId } })).toMatchObject({ status: "DUNNING", lastErrorCode: "INSUFFICIENT_FUNDS" });
    const [failed] = await eventsOf(shopId, "subscription.payment_failed", c.gid);
    expect(failed.data).toMatchObject({ error_code: "INSUFFICIENT_FUNDS", next_retry_at: "2031-07-21T00:00:00.000Z" });
  });

  it("Shopify unavailable while overdue attempts are read: the run still ends, and the next run settles them", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-07-25T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    await stack.control.failNext(domain, { operation: "subscriptionBillingAttemptCreate", webhooksLost: true });
    await run(domain, due, 3600_000);
    await prisma.billingAttempt.updateMany({ where: { shopId }, data: { createdAt: new Date(Date.now() - 2 * 3600_000) } });
    // Every try the GraphQL client makes of the read answers 503 (it retries a query five times).
    for (let i = 0; i < 5; i++) await stack.control.failNext(domain, { operation: "subscriptionBillingAttempt", status: 503 });
    expect((await run(domain, due, 2 * 3600_000)).overdueSettled).toBe(0);
    expect(await prisma.billingCycle.findFirstOrThrow({ where: { shopId } })).toMatchObject({ status: "CHARGING" });
    expect((await run(domain, due, 3 * 3600_000)).overdueSettled).toBe(1);
    expect(await eventsOf(shopId, "subscription.renewed", c.gid)).toHaveLength(1);
  });

  it("billing-attempt webhooks with a bad HMAC are refused and store nothing", async () => {
    const { domain } = await stack.installShop();
    const payload = {
      admin_graphql_api_id: "gid://shopify/SubscriptionBillingAttempt/1",
      idempotency_key: "k",
      admin_graphql_api_subscription_contract_id: "gid://shopify/SubscriptionContract/1",
    };
    for (const outcome of ["success", "failure", "challenged"]) {
      const res = await postWebhook(`subscription_billing_attempts/${outcome}`, domain, payload, {
        webhookId: `bad-hmac-${outcome}-${domain}`,
        secret: "not-the-secret",
      });
      expect(res.status).toBe(401);
    }
    expect(await prisma.inboundWebhook.count({ where: { shopDomain: domain } })).toBe(0);
  });
});

describe("renewal reminders", () => {
  it("fire once per contract and cycle, reminderDays before each charge, and again for the next cycle", async () => {
    const { domain, shopId } = await stack.installShop();
    const due = "2031-08-10T00:00:00.000Z";
    const c = await seedDueContract(stack.control, domain, { nextBillingDate: due });
    expect((await run(domain, due, -4 * DAY)).reminders).toBe(0);
    expect((await run(domain, due, -3 * DAY + 3600_000)).reminders).toBe(1);
    expect((await run(domain, due, -2 * DAY)).reminders).toBe(0);
    await Promise.all([run(domain, due, -DAY), run(domain, due, -DAY)]);
    const first = await eventsOf(shopId, "subscription.renewal_reminder", c.gid);
    expect(first).toHaveLength(1);
    expect(first[0].data).toMatchObject({ next_billing_at: due, amount: { amount: "24.00", currency_code: "USD" }, customer_id: c.customerGid });

    await run(domain, due, 3600_000);
    await cycleReaches(domain, c.gid, due, ["PAID"]);
    await stack.settled(domain, async () => (await mirrorOf(shopId, c.gid)).nextBillingAt?.toISOString() === "2031-09-10T00:00:00.000Z");
    expect((await run("" + domain, "2031-09-10T00:00:00.000Z", -2 * DAY)).reminders).toBe(1);
    expect((await eventsOf(shopId, "subscription.renewal_reminder", c.gid)).map((e) => e.data.next_billing_at)).toEqual([due, "2031-09-10T00:00:00.000Z"]);
  });
});
