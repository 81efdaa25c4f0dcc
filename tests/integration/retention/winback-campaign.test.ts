// A win-back campaign end to end (docs/decisions/115-117): the campaign job queued on a fixed clock
// and run by a real BullMQ worker against the simulator, the local mailbox, a real HTTPS webhook
// receiver fed by the delivery worker process, the come-back link over HTTP, and a billing run.
vi.hoisted(() => {
  // The in-process web app (endpoint creation) admits the loopback receiver.
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { fixedClock } from "../../../app/domain/renewals/clock.server";
import { runBilling } from "../../../app/domain/renewals/charge.server";
import { createCampaign, pauseCampaign, startCampaign } from "../../../app/domain/retention/winback-campaigns.server";
import { holdoutBucket } from "../../../app/domain/retention/winback-audience";
import { queueWinbackRuns, runWinback, type WinbackRunReport } from "../../../app/domain/retention/winback-run.server";
import { suppress } from "../../../app/domain/notifications/suppression.server";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import type { Contract as SimContract, CodeDiscount } from "../../../simulator/state";
import { createKey, createPlanGroup } from "../../support/fixtures";
import { eventsOf } from "../../support/billing-factories";
import { mailTo, uniqueAddress, useMailbox, waitForMail } from "../../support/mail";
import type { WorkerProcess } from "../../support/processes";
import { eventually, startStack, type Stack } from "../../support/stack";
import { makeCert, startDeliveryWorker, startReceiver, type Receiver } from "../../support/webhook-receivers";

const DAY = 86_400_000;
let stack: Stack;
let worker: WorkerProcess;
let receiver: Receiver;
const box = useMailbox();

beforeAll(async () => {
  const cert = makeCert();
  // Webhook deliveries go through the worker process that trusts the receiver's certificate.
  stack = await startStack({ workersExcept: [QUEUES.webhooks] });
  worker = await startDeliveryWorker(cert);
  receiver = await startReceiver(cert);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await stack?.close();
});

type Consent = "SUBSCRIBED" | "NOT_SUBSCRIBED" | "UNSUBSCRIBED";

async function api<T>(key: string, path: string): Promise<{ status: number; json: T }> {
  const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, json: (await res.json()) as T };
}

/** A shop with a product sold on a monthly plan, and a way to seed customers whose contract was cancelled. */
async function retentionShop() {
  const { domain, shopId } = await stack.installShop();
  const shop = stack.control.shop(domain);
  const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${shop}/products`, {
    title: "Espresso beans",
    variants: [{ price: "24.00" }],
  });
  const variant = product.variants[0].id;
  const group = await stack.control.call<{ id: string; sellingPlans: { id: string }[] }>("POST", `${shop}/selling-plan-groups`, {
    name: "Coffee club",
    plans: [{ name: "Monthly", interval: "MONTH", intervalCount: 1 }],
    variantIds: [variant],
  });
  const planId = group.sellingPlans[0].id;
  await createPlanGroup(shopId, { groupGid: group.id, name: "Coffee club", sellingPlanGids: [planId] });

  async function churned(tag: string, o: { consent?: Consent; cancelledDaysAgo?: number; reason?: string; liveContract?: boolean } = {}) {
    const email = uniqueAddress(tag);
    const customer = await stack.control.call<{ id: string; paymentMethods: { id: string }[] }>("POST", `${shop}/customers`, {
      email,
      marketingState: o.consent ?? "SUBSCRIBED",
      paymentMethod: { kind: "credit_card" },
    });
    const ended = new Date(Date.now() - (o.cancelledDaysAgo ?? 10) * DAY);
    const contract = await stack.control.call<{ id: string }>("POST", `${shop}/contracts`, {
      customerId: customer.id,
      status: "CANCELLED",
      createdAt: new Date(ended.getTime() - 120 * DAY).toISOString(),
      updatedAt: ended.toISOString(),
      nextBillingDate: new Date(ended.getTime() + 20 * DAY).toISOString(),
      billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
      lines: [{ variantId: variant, quantity: 2, sellingPlanId: planId }],
      webhooks: false,
    });
    await reconcileContract(domain, contract.id);
    await prisma.cancelReason.create({ data: { shopId, contractGid: contract.id, customerGid: customer.id, reason: o.reason ?? "Too expensive" } });
    if (o.liveContract) {
      const live = await stack.control.call<{ id: string }>("POST", `${shop}/contracts`, {
        customerId: customer.id,
        status: "ACTIVE",
        billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
        lines: [{ variantId: variant, quantity: 1, sellingPlanId: planId }],
        webhooks: false,
      });
      await reconcileContract(domain, live.id);
    }
    return { customerId: customer.id, contractId: contract.id, email, paymentMethodId: customer.paymentMethods[0].id };
  }
  return { domain, shopId, shop, variant, planId, churned };
}

/** Queues the hourly tick at `now` and waits for this shop's run; answers its report. */
async function tick(domain: string, now: Date): Promise<WinbackRunReport> {
  await queueWinbackRuns(now);
  const id = `winback-${domain}-${now.toISOString().slice(0, 13)}`;
  return stack.settled(
    domain,
    async () => {
      const job = await queue(QUEUES.sweeps).getJob(id);
      if (job && (await job.isFailed())) throw new Error(job.failedReason);
      return job && (await job.isCompleted()) ? (job.returnvalue as WinbackRunReport) : null;
    },
    30_000,
  );
}

const returnUrlIn = (text: string) => {
  const m = /(http:\/\/\S+\/winback\/return\?\S+)/.exec(text);
  if (!m) throw new Error(`no come-back link in: ${text}`);
  return m[1].replace(env().SHOPIFY_APP_URL, stack.appUrl);
};

describe("a win-back campaign run end to end", () => {
  it("sends exactly the rule's audience minus the hold-out, once each; a click clones the contract; attribution follows billing; re-runs send nothing twice", async () => {
    const s = await retentionShop();
    const { key } = await createKey({ shopId: s.shopId, name: "winback", scopes: ["read:winback", "manage:webhooks"], kind: "SECRET" });
    const endpoint = await fetch(`${stack.appUrl}/api/admin/v1/webhooks/endpoints`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ url: receiver.url, events: ["customer.winback_started"] }),
    });
    expect(endpoint.status).toBe(201);

    // The audience by the rules: eight eligible customers, and one of each exclusion.
    const eligible = [];
    for (let i = 0; i < 8; i++) eligible.push(await s.churned(`ok${i}`, { reason: i % 2 ? "too expensive" : "Too expensive" }));
    const noConsent = await s.churned("noconsent", { consent: "NOT_SUBSCRIBED" });
    const unsubscribed = await s.churned("unsub", { consent: "UNSUBSCRIBED" });
    const suppressed = await s.churned("suppressed");
    await suppress(s.shopId, suppressed.email, "hard bounce: 550 no such user");
    const otherReason = await s.churned("moving", { reason: "Moving away" });
    const tooOld = await s.churned("old", { cancelledDaysAgo: 120 });
    const back = await s.churned("back", { liveContract: true });
    const waiting = await s.churned("waiting", { cancelledDaysAgo: 1 });
    const never = [noConsent, unsubscribed, suppressed, otherReason, tooOld, back];

    const form = {
      name: "Come back for 15%",
      offerLabel: "15% off your first box back.",
      discountPercent: 15,
      delayDays: 3,
      cancelledWithinDays: 60,
      reasons: ["Too expensive"],
      holdoutPercent: 50,
      attributionDays: 30,
    };
    // The hold-out is a hash of campaign and customer: a campaign id that splits the eight both ways.
    let campaignId = "";
    for (let tries = 0; tries < 20 && !campaignId; tries++) {
      const c = await createCampaign(s.shopId, form);
      if (!c.ok) throw new Error(JSON.stringify(c.errors));
      const held = eligible.filter((e) => holdoutBucket(c.campaign.id, e.customerId) < 50).length;
      if (held > 0 && held < eligible.length && holdoutBucket(c.campaign.id, eligible[0].customerId) >= 50) campaignId = c.campaign.id;
    }
    expect(campaignId).not.toBe("");
    const heldOut = eligible.filter((e) => holdoutBucket(campaignId, e.customerId) < 50);
    const sentTo = eligible.filter((e) => holdoutBucket(campaignId, e.customerId) >= 50);

    // A draft is not run: the tick queues no run for the shop, and a run finds nothing to do.
    const now = new Date();
    await queueWinbackRuns(now);
    expect(await queue(QUEUES.sweeps).getJob(`winback-${s.domain}-${now.toISOString().slice(0, 13)}`)).toBeUndefined();
    expect((await runWinback(s.domain, now)).campaigns).toBe(0);
    expect(await prisma.winbackSend.count({ where: { campaignId } })).toBe(0);

    await startCampaign(s.shopId, campaignId);
    const first = await tick(s.domain, new Date(now.getTime() + 3_600_000));
    expect(first).toMatchObject({ campaigns: 1, sent: sentTo.length, heldOut: heldOut.length });
    // The cancellation older than the window is not read at all (the query's own bound), so it is no exclusion either.
    expect(first.excluded).toEqual({ no_consent: 2, suppressed: 1, reason: 1, won_back: 1, waiting: 1 });

    const ledger = await prisma.winbackSend.findMany({ where: { campaignId } });
    expect(
      ledger
        .filter((r) => !r.heldOut)
        .map((r) => r.customerGid)
        .sort(),
    ).toEqual(sentTo.map((e) => e.customerId).sort());
    expect(
      ledger
        .filter((r) => r.heldOut)
        .map((r) => r.customerGid)
        .sort(),
    ).toEqual(heldOut.map((e) => e.customerId).sort());
    expect(ledger.filter((r) => r.heldOut).every((r) => r.sentAt === null && r.notificationId === null && r.discountCode === null)).toBe(true);

    // One e-mail each, with the customer's own code made in Shopify and a signed come-back link.
    const discounts = await stack.control.call<CodeDiscount[]>("GET", `${s.shop}/discounts`);
    expect(discounts).toHaveLength(sentTo.length);
    for (const e of sentTo) {
      const [msg] = await waitForMail(box, e.email);
      const row = ledger.find((r) => r.customerGid === e.customerId)!;
      const discount = discounts.find((d) => d.code === row.discountCode)!;
      expect(discount).toMatchObject({ customerIds: [e.customerId], percentage: 0.15, usageLimit: 1, appliesOncePerCustomer: true });
      expect(msg.subject).toBe("Come back to Espresso beans: 15% off your first box back.");
      expect(msg.text).toContain(`Use the code ${row.discountCode} at checkout.`);
      expect(msg.text).toContain(`${env().SHOPIFY_APP_URL}/winback/return?s=${row.id}&t=`);
    }
    // The link's token is in the e-mail only: not in the ledger, not in the outbox's stored payload.
    const stored = await prisma.notificationLogEntry.findMany({ where: { shopId: s.shopId, event: "winback_offer" } });
    expect(stored).toHaveLength(sentTo.length);
    for (const r of stored) expect(JSON.stringify(r.payload)).not.toMatch(/winback\/return|[?&]t=/);
    for (const e of [...heldOut, ...never, waiting]) expect(await mailTo(box, e.email)).toEqual([]);

    // customer.winback_started reached the endpoint once per customer sent to; never for the hold-out.
    const started = await eventually(async () => {
      const got = receiver.received.filter((r) => r.json.type === "customer.winback_started");
      return got.length >= sentTo.length ? got : null;
    }, 30_000);
    expect(started.map((r) => r.json.data.customer_id).sort()).toEqual(sentTo.map((e) => e.customerId).sort());
    for (const r of started) {
      expect(Object.keys(r.json.data).sort()).toEqual(["campaign_id", "contract_id", "customer_id", "send_id"]);
      expect(r.json.data.campaign_id).toBe(campaignId);
      expect(JSON.stringify(r.json)).not.toContain("@");
    }

    // The click: a GET shows the confirm page and changes nothing; the POST clones the contract once.
    const clicker = sentTo[0];
    const [msg] = await mailTo(box, clicker.email);
    const url = returnUrlIn(msg.text);
    const contractsOf = async (customerId: string) =>
      (await stack.control.call<SimContract[]>("GET", `${s.shop}/contracts`)).filter((c) => c.customerId === customerId);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Restart my subscription");
    expect(await contractsOf(clicker.customerId)).toHaveLength(1);
    const forged = await fetch(url.replace(/t=[^&]+/, "t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), { method: "POST" });
    expect(forged.status).toBe(400);

    const clicked = await fetch(url, { method: "POST" });
    expect(clicked.status).toBe(200);
    expect(await clicked.text()).toContain("Welcome back");
    const theirs = await contractsOf(clicker.customerId);
    expect(theirs).toHaveLength(2);
    const old = theirs.find((c) => c.id === clicker.contractId)!;
    const clone = theirs.find((c) => c.id !== clicker.contractId)!;
    expect(clone.status).toBe("ACTIVE");
    expect(old.status).toBe("CANCELLED");
    const lineOf = (c: SimContract) => c.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity, price: l.price, plan: l.sellingPlanId }));
    expect(lineOf(clone)).toEqual(lineOf(old));
    expect(lineOf(clone)[0]).toMatchObject({ variantId: s.variant, quantity: 2, plan: s.planId });
    expect(clone.billingPolicy).toMatchObject({ interval: "MONTH", intervalCount: 1 });
    expect(clone.paymentMethodId).toBe(clicker.paymentMethodId);
    expect(old.deliveryAddress).toMatchObject({ address1: "1 Main Street", city: "Ottawa" });
    expect(clone.deliveryAddress).toMatchObject(old.deliveryAddress!);
    // Single use: a second POST makes nothing more.
    const again = await fetch(url, { method: "POST" });
    expect(await again.text()).toContain("Welcome back");
    expect(await contractsOf(clicker.customerId)).toHaveLength(2);

    const send = await prisma.winbackSend.findFirstOrThrow({ where: { campaignId, customerGid: clicker.customerId } });
    expect(send).toMatchObject({ reactivated: true, newContractGid: clone.id, contractGid: clicker.contractId });
    expect(send.reactivatedAt).not.toBeNull();

    // The new contract is announced as subscription.created naming the win-back; nothing is "reactivated".
    const created = await stack.settled(s.domain, async () => {
      const evs = await eventsOf(s.shopId, "subscription.created", clone.id);
      return evs.length ? evs : null;
    });
    expect(created).toHaveLength(1);
    expect(created[0].data).toEqual({
      contract_id: clone.id,
      customer_id: clicker.customerId,
      status: "ACTIVE",
      winback: { campaign_id: campaignId, send_id: send.id, previous_contract_id: clicker.contractId },
    });
    expect(await eventsOf(s.shopId, "subscription.reactivated")).toEqual([]);

    // A billing run charges the clone; the send's recovered_amount counts the charge.
    const billed = await runBilling(s.domain, { clock: fixedClock(new Date(Date.now() + 3_600_000)) });
    expect(billed.charged.map((l) => l.contractId)).toEqual([clone.id]);
    const recovered = await stack.settled(s.domain, async () => {
      const row = await prisma.winbackSend.findUniqueOrThrow({ where: { id: send.id } });
      return row.recoveredAmountCents > 0 ? row : null;
    });
    expect(recovered.recoveredAmountCents).toBe(4800); // 2 x 24.00
    const sends = await api<{ data: { id: string; reactivated: boolean; recovered_amount: unknown; new_contract_id: string | null }[] }>(
      key,
      `/winback/campaigns/${campaignId}/sends`,
    );
    expect(sends.status).toBe(200);
    expect(sends.json.data).toHaveLength(sentTo.length);
    expect(sends.json.data.find((r) => r.id === send.id)).toMatchObject({
      reactivated: true,
      recovered_amount: { amount: "48.00", currency_code: "USD" },
      new_contract_id: clone.id,
    });

    // Paused: a run three days on decides nobody, not even the customer whose delay has passed.
    await pauseCampaign(s.shopId, campaignId);
    const later = new Date(now.getTime() + 3 * DAY + 2 * 3_600_000);
    expect((await runWinback(s.domain, later)).campaigns).toBe(0);
    expect(await prisma.winbackSend.count({ where: { campaignId, customerGid: waiting.customerId } })).toBe(0);

    // Started again: the waiting customer is decided now; nobody else is written, mailed or announced twice.
    await startCampaign(s.shopId, campaignId);
    const resumed = await tick(s.domain, new Date(later.getTime() + 3_600_000));
    const waitingHeld = holdoutBucket(campaignId, waiting.customerId) < 50;
    expect(resumed).toMatchObject({ campaigns: 1, sent: waitingHeld ? 0 : 1, heldOut: waitingHeld ? 1 : 0 });
    expect(await prisma.winbackSend.count({ where: { campaignId } })).toBe(eligible.length + 1);
    const rows = await prisma.notificationLogEntry.groupBy({ by: ["customerGid"], where: { shopId: s.shopId, event: "winback_offer" }, _count: true });
    expect(rows.every((r) => r._count === 1)).toBe(true);
    for (const e of sentTo) expect(await mailTo(box, e.email)).toHaveLength(1);
    for (const e of never) expect(await mailTo(box, e.email)).toEqual([]);
    const announced = await prisma.event.count({ where: { shopId: s.shopId, type: "customer.winback_started" } });
    expect(announced).toBe(sentTo.length + (waitingHeld ? 0 : 1));
    expect(await stack.control.call<CodeDiscount[]>("GET", `${s.shop}/discounts`)).toHaveLength(sentTo.length + (waitingHeld ? 0 : 1));

    // Every campaign write left its audit row.
    const audit = await prisma.auditEvent.findMany({ where: { shopId: s.shopId, targetId: campaignId }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["campaign.create", "campaign.start", "campaign.pause", "campaign.start"]);

    // The campaign on the Admin API: both groups and the incremental figure beside the raw one.
    const list = await api<{ data: { id: string; results: { sent: { customers: number; reactivated: number }; holdout: { customers: number } } }[] }>(
      key,
      "/winback/campaigns",
    );
    const mine = list.json.data.find((c) => c.id === campaignId)!;
    expect(mine.results.sent).toMatchObject({ customers: sentTo.length + (waitingHeld ? 0 : 1), reactivated: 1 });
    expect(mine.results.holdout.customers).toBe(heldOut.length + (waitingHeld ? 1 : 0));
  }, 240_000);

  it("the incremental figures on a seeded case with a known answer: the hold-out's rate and revenue per customer are the baseline", async () => {
    const { shopId } = await stack.installShop();
    const { key } = await createKey({ shopId, name: "winback", scopes: ["read:winback"], kind: "SECRET" });
    const c = await prisma.winbackCampaign.create({
      data: { shopId, name: "Seeded", status: "active", offerLabel: "10% off", delayDays: 0, holdoutPercent: 30, attributionDays: 30 },
    });
    const none = await prisma.winbackCampaign.create({
      data: { shopId, name: "No hold-out", status: "active", offerLabel: "x", delayDays: 0, holdoutPercent: 0 },
    });
    // Sent: 10 customers, 4 came back with 24.00 each. Held out: 5 customers, 1 came back with 24.00.
    const row = (campaignId: string, i: number, heldOut: boolean, reactivated: boolean) => ({
      shopId,
      campaignId,
      contractGid: `gid://shopify/SubscriptionContract/${9000 + i}`,
      customerGid: `gid://shopify/Customer/${9000 + i}`,
      heldOut,
      sentAt: heldOut ? null : new Date(),
      reactivated,
      reactivatedAt: reactivated ? new Date() : null,
      recoveredAmountCents: reactivated ? 2400 : 0,
      currencyCode: "USD",
    });
    await prisma.winbackSend.createMany({
      data: [
        ...Array.from({ length: 10 }, (_, i) => row(c.id, i, false, i < 4)),
        ...Array.from({ length: 5 }, (_, i) => row(c.id, 100 + i, true, i < 1)),
        ...Array.from({ length: 3 }, (_, i) => row(none.id, 200 + i, false, i < 1)),
      ],
    });
    const res = await api<{ data: { id: string; results: unknown }[] }>(key, "/winback/campaigns");
    expect(res.status).toBe(200);
    // Rates 0.4 and 0.2; incremental reactivations 4 - 0.2 x 10 = 2; revenue 96.00 raw, 96.00 - (24.00 / 5) x 10 = 48.00 added.
    expect(res.json.data.find((x) => x.id === c.id)!.results).toEqual({
      sent: { customers: 10, reactivated: 4, reactivation_rate: 0.4, recovered: [{ amount: "96.00", currency_code: "USD" }] },
      holdout: { customers: 5, reactivated: 1, reactivation_rate: 0.2, recovered: [{ amount: "24.00", currency_code: "USD" }] },
      incremental_reactivations: 2,
      revenue: [{ raw: { amount: "96.00", currency_code: "USD" }, incremental: { amount: "48.00", currency_code: "USD" } }],
    });
    // Without a hold-out there is no baseline: the incremental figures are null, never the raw one relabelled.
    expect(res.json.data.find((x) => x.id === none.id)!.results).toMatchObject({
      incremental_reactivations: null,
      revenue: [{ raw: { amount: "24.00", currency_code: "USD" }, incremental: null }],
    });
  });
});
