// The delivery hot path under concurrency (docs/decisions/077, 078): one worker process running
// 32 attempts at once, whose loads and outcomes go to PostgreSQL in shared statements, and the
// one-statement publish. What a batch may never change: each attempt recorded once, outcomes
// routed to their own deliveries (a success beside a failure in the same batch), the exhausted
// count reset by a success, two copies of one job recording one attempt, and the entitlement.
vi.hoisted(() => {
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { RETRY_LADDER_MS } from "../../../app/domain/outbound-webhooks/catalogue";
import { createEndpoint } from "../../../app/domain/outbound-webhooks/endpoints.server";
import { ATTEMPT_JOB_OPTIONS, attemptJobId } from "../../../app/domain/outbound-webhooks/jobs.server";
import { publishEvent, publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { QUEUES, enqueueBulk } from "../../../app/infra/queues.server";
import { withAttemptLog } from "../../support/delivery-log";
import type { WorkerProcess } from "../../support/processes";
import { eventually, startStack, type Stack } from "../../support/stack";
import { makeCert, startDeliveryWorker, startReceiver, type Receiver, type TestCert } from "../../support/webhook-receivers";

let stack: Stack;
let cert: TestCert;
let worker: WorkerProcess | undefined;
const receivers: Receiver[] = [];

beforeAll(async () => {
  cert = makeCert();
  stack = await startStack({ workers: false });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await stack?.close();
});

const data = (n: number) => ({
  contract_id: `gid://shopify/SubscriptionContract/${n}`,
  customer_id: "gid://shopify/Customer/1",
  previous_status: "ACTIVE" as const,
  new_status: "PAUSED" as const,
});

it("a backlog drained 32 at a time: every attempt recorded once with its own outcome, successes reset the count, a second copy of a job records nothing", async () => {
  const shop = await stack.installShop("PRO");
  const ok = [await startReceiver(cert), await startReceiver(cert), await startReceiver(cert)];
  const failing = await startReceiver(cert, () => ({ status: 503 }));
  receivers.push(...ok, failing);
  const okEndpoints = [];
  for (const r of ok) okEndpoints.push(await createEndpoint({ shopId: shop.shopId, url: r.url, events: ["subscription.paused"] }));
  const failingEndpoint = await createEndpoint({ shopId: shop.shopId, url: failing.url, events: ["subscription.paused"] });
  // Counts a success must reset (and a failure must leave alone).
  await prisma.webhookEndpoint.updateMany({ where: { shopId: shop.shopId }, data: { consecutiveExhausted: 3 } });

  // The backlog is written while no worker runs, so the worker starts with all of it waiting.
  const EVENTS = 40;
  const deliveryIds: string[] = [];
  for (let n = 0; n < EVENTS; n++) {
    const p = await prisma.$transaction((tx) =>
      publishEvent(tx, { shopId: shop.shopId, type: "subscription.paused", sourceKey: `batched:${randomUUID()}`, data: data(n) }),
    );
    expect(p.created).toBe(true);
    expect(p.deliveryIds).toHaveLength(4);
    deliveryIds.push(...p.deliveryIds);
  }
  // Each delivery's first attempt, and right behind it, for the first twelve, a second copy of
  // the same attempt under another job id (as BullMQ's stalled check hands on the job a crashed
  // worker held): both copies run at once, and only one may record.
  const copied = new Set(deliveryIds.slice(0, 12));
  await enqueueBulk(
    QUEUES.webhooks,
    deliveryIds.flatMap((deliveryId) => {
      const job = {
        name: "deliver" as const,
        data: { deliveryIds: [deliveryId], attempt: 1 },
        opts: { ...ATTEMPT_JOB_OPTIONS, jobId: attemptJobId(deliveryId, 1) },
      };
      return copied.has(deliveryId) ? [job, { ...job, opts: { ...job.opts, jobId: `copy-${deliveryId}` } }] : [job];
    }),
  );

  worker = await startDeliveryWorker(cert, { WORKER_QUEUES: "webhooks", WORKER_CONCURRENCY: "32" });
  const settled = await eventually(async () => {
    const rows = await withAttemptLog(await prisma.webhookDelivery.findMany({ where: { id: { in: deliveryIds } } }));
    return rows.every((d) => d.attempts >= 1) ? rows : null;
  }, 60_000);
  // Let a late copy of a job finish before counting.
  await new Promise((r) => setTimeout(r, 1000));

  const after = await withAttemptLog(await prisma.webhookDelivery.findMany({ where: { id: { in: deliveryIds } } }));
  expect(after).toHaveLength(EVENTS * 4);
  expect(settled).toHaveLength(EVENTS * 4);
  for (const d of after) {
    // Exactly one attempt recorded, however many copies of its job ran.
    expect(d.attempts, d.id).toBe(1);
    expect(d.attemptLog, d.id).toHaveLength(1);
    const [a] = d.attemptLog;
    expect(a.number).toBe(1);
    if (d.endpointId === failingEndpoint.id) {
      expect(d.status).toBe("failed");
      expect(d.responseCode).toBe(503);
      expect(d.lastError).toBe("HTTP 503 from the endpoint");
      expect(d.deliveredAt).toBeNull();
      expect(a.outcome).toBe("failed");
      // The ladder's second rung, from the end of this attempt.
      expect(d.nextAttemptAt!.getTime() - a.finishedAt.getTime()).toBe(RETRY_LADDER_MS[1]);
    } else {
      expect(d.status).toBe("delivered");
      expect(d.responseCode).toBe(200);
      expect(d.lastError).toBeNull();
      expect(d.nextAttemptAt).toBeNull();
      expect(d.deliveredAt!.getTime()).toBe(a.finishedAt.getTime());
      expect(a.outcome).toBe("delivered");
    }
  }
  // Every receiver saw every event (a copy may have been posted twice: at-least-once).
  for (const r of [...ok, failing]) expect(new Set(r.received.map((x) => x.json.id)).size).toBe(EVENTS);
  const endpoints = await prisma.webhookEndpoint.findMany({ where: { shopId: shop.shopId } });
  for (const e of endpoints) expect(e.consecutiveExhausted, e.url).toBe(e.id === failingEndpoint.id ? 3 : 0);
  expect(okEndpoints.every((e) => endpoints.some((x) => x.id === e.id && x.enabled))).toBe(true);
}, 120_000);

it("publish is one statement: a replayed source writes nothing; below Pro, uninstalled, or a partner development store on an unpaid plan records the event and writes no delivery", async () => {
  const shop = await stack.installShop("PRO");
  const r = await startReceiver(cert);
  receivers.push(r);
  const endpoint = await createEndpoint({ shopId: shop.shopId, url: r.url, events: ["subscription.paused"] });
  const other = await createEndpoint({ shopId: shop.shopId, url: r.url, events: ["subscription.cancelled"] });
  const disabled = await createEndpoint({ shopId: shop.shopId, url: r.url, events: ["subscription.paused"] });
  await prisma.webhookEndpoint.update({ where: { id: disabled.id }, data: { enabled: false, disabledReason: "merchant" } });

  // Inside a caller's transaction, with the change that causes it (the outbox).
  const sourceKey = `batched-publish:${randomUUID()}`;
  const first = await prisma.$transaction((tx) => publishEvent(tx, { shopId: shop.shopId, type: "subscription.paused", sourceKey, data: data(1) }));
  expect(first.created).toBe(true);
  expect(first.deliveryIds).toHaveLength(1);
  const row = await prisma.webhookDelivery.findFirstOrThrow({ where: { id: first.deliveryIds[0] } });
  expect(row).toMatchObject({ endpointId: endpoint.id, eventId: first.eventId, event: "subscription.paused", status: "pending", attempts: 0, manual: false });
  expect(row.nextAttemptAt).not.toBeNull();
  const event = await prisma.event.findUniqueOrThrow({ where: { id: first.eventId } });
  expect(event).toMatchObject({ shopId: shop.shopId, type: "subscription.paused", sourceKey, test: false, data: data(1) });
  expect(other.id).not.toBe(endpoint.id);

  // A rolled-back transaction leaves neither the event nor its deliveries.
  const rolledBackKey = `batched-publish:${randomUUID()}`;
  await expect(
    prisma.$transaction(async (tx) => {
      await publishEvent(tx, { shopId: shop.shopId, type: "subscription.paused", sourceKey: rolledBackKey, data: data(2) });
      throw new Error("the change failed");
    }),
  ).rejects.toThrow("the change failed");
  expect(await prisma.event.count({ where: { sourceKey: rolledBackKey } })).toBe(0);

  const replay = await publishEventNow({ shopId: shop.shopId, type: "subscription.paused", sourceKey, data: data(1) });
  // A replay calls no Flow trigger either (docs/decisions/128-flow-triggers.md).
  expect(replay).toEqual({ eventId: first.eventId, created: false, deliveryIds: [], flowCall: false });
  expect(await prisma.webhookDelivery.count({ where: { eventId: first.eventId } })).toBe(1);

  const gated = async (facts: Parameters<typeof prisma.shop.update>[0]["data"]) => {
    await prisma.shop.update({ where: { id: shop.shopId }, data: facts });
    const p = await publishEventNow({ shopId: shop.shopId, type: "subscription.paused", sourceKey: `batched-publish:${randomUUID()}`, data: data(3) });
    expect(p.created).toBe(true);
    expect(await prisma.event.count({ where: { id: p.eventId } })).toBe(1);
    return p.deliveryIds.length;
  };
  expect(await gated({ partnerDevelopment: true, platformPlanPaid: false })).toBe(0);
  expect(await gated({ partnerDevelopment: true, platformPlanPaid: true })).toBe(1);
  expect(await gated({ partnerDevelopment: false, appPlan: "FREE" })).toBe(0);
  expect(await gated({ appPlan: "PRO", installState: "UNINSTALLED" })).toBe(0);
  expect(await gated({ installState: "INSTALLED" })).toBe(1);
});
