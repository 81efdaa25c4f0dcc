// Redis may lose everything; nothing is lost (docs/decisions/051-webhook-durability.md). Inbound
// Shopify webhooks are stored in PostgreSQL before their 200, events and deliveries are written
// in the transaction of their change, and the sweeper hands back to the queues whatever Redis
// forgot. A worker killed mid-delivery loses nothing either: the job's lock lapses and the
// delivery is made again, with the same event id and body.
vi.hoisted(() => {
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { createEndpoint } from "../../../app/domain/outbound-webhooks/endpoints.server";
import { firstAttemptsJobId } from "../../../app/domain/outbound-webhooks/jobs.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { requeueWebhookWork } from "../../../app/domain/outbound-webhooks/sweep.server";
import { QUEUES, queue, queueConnection } from "../../../app/infra/queues.server";
import { type WebhookAttemptPayload } from "../../../app/infra/job-payloads";
import { exited, type WorkerProcess } from "../../support/processes";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { eventually, startStack, type Stack } from "../../support/stack";
import { makeCert, startDeliveryWorker, startReceiver, type Receiver, type TestCert } from "../../support/webhook-receivers";

let stack: Stack;
let cert: TestCert;
const children: WorkerProcess[] = [];
const receivers: Receiver[] = [];
beforeAll(async () => {
  cert = makeCert();
  stack = await startStack({ workers: false });
}, 120_000);
// A test that failed midway must not leave its worker serving the next test's jobs.
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop()));
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await stack?.close();
});

async function worker(extra: Record<string, string> = {}) {
  const child = await startDeliveryWorker(cert, extra);
  children.push(child);
  return child;
}

const publishDirect = (shopId: string) =>
  publishEventNow({
    shopId,
    type: "subscription.cancelled",
    sourceKey: `durability:${randomUUID()}`,
    data: { contract_id: "gid://shopify/SubscriptionContract/9", customer_id: "gid://shopify/Customer/9", previous_status: "ACTIVE", new_status: "CANCELLED" },
  });

it("Redis loses its data with inbound webhooks and deliveries waiting: after the sweeper runs, every event exists and every delivery arrives", async () => {
  const r = await startReceiver(cert);
  receivers.push(r);
  const { domain, shopId } = await stack.installShop();
  await createEndpoint({ shopId, url: r.url, events: ["subscription.paused", "subscription.cancelled"] });

  // Ten contracts, mirrored (no worker runs yet), then paused "in Shopify admin": ten inbound
  // subscription_contracts/update webhooks, stored and queued, nobody processing them.
  const { ids } = await stack.control.call<{ ids: string[] }>("POST", `${stack.control.shop(domain)}/contracts/bulk`, { count: 10, webhooks: false });
  await reconcileShop(domain);
  for (const id of ids) await stack.control.call("PATCH", `${stack.control.shop(domain)}/contracts/${encodeURIComponent(id)}`, { status: "PAUSED" });
  await stack.sim.idle();
  expect(await prisma.inboundWebhook.count({ where: { shopDomain: domain, topic: "subscription_contracts/update", processedAt: null } })).toBe(10);
  expect(await queue(QUEUES.mirror).getWaitingCount()).toBeGreaterThanOrEqual(10);

  // Five events published with their deliveries queued, nobody delivering them.
  const direct = await Promise.all(Array.from({ length: 5 }, () => publishDirect(shopId)));
  expect(direct.every((p) => p.deliveryIds.length === 1)).toBe(true);
  expect(await queue(QUEUES.webhooks).getWaitingCount()).toBeGreaterThanOrEqual(5);

  // Redis loses everything under this run's prefix (never FLUSHDB: tests/support/redis-keys.ts).
  expect(await deleteRedisPrefix(queueConnection(), env().REDIS_PREFIX)).toBeGreaterThan(0);
  expect(await queue(QUEUES.mirror).getWaitingCount()).toBe(0);
  expect(await queue(QUEUES.webhooks).getWaitingCount()).toBe(0);

  // A worker starts; only the sweeper (every second here, no grace) knows what was waiting.
  await worker({ WEBHOOK_SWEEP_CRON: "* * * * * *", WEBHOOK_SWEEP_GRACE_MS: "0" });
  const paused = await eventually(async () => {
    const events = await prisma.event.findMany({ where: { shopId, type: "subscription.paused" }, select: { id: true, data: true } });
    return events.length === 10 ? events : null;
  }, 60_000);
  expect(new Set(paused.map((e) => (e.data as { contract_id: string }).contract_id))).toEqual(new Set(ids));
  const expected = new Set([...paused.map((e) => e.id), ...direct.map((p) => p.eventId)]);
  await eventually(async () => new Set(r.received.map((x) => x.json.id)).size === expected.size, 60_000);
  expect(new Set(r.received.map((x) => x.json.id))).toEqual(expected);
  // The receiver answered each; the worker records it a moment later.
  await eventually(async () => (await prisma.webhookDelivery.count({ where: { shopId, status: { not: "delivered" } } })) === 0, 30_000);
  // Likewise an inbound webhook is marked processed once its job has ended, after its event.
  await eventually(async () => (await prisma.inboundWebhook.count({ where: { shopDomain: domain, processedAt: null } })) === 0, 30_000);
}, 150_000);

it("an event's first attempts go out as one job, which the sweeper re-adds under the same id only once Redis has lost it", async () => {
  const rs = await Promise.all([1, 2, 3].map(() => startReceiver(cert)));
  receivers.push(...rs);
  const { shopId } = await stack.installShop();
  for (const r of rs) await createEndpoint({ shopId, url: r.url, events: ["subscription.cancelled"] });

  const published = await publishDirect(shopId);
  expect(published.deliveryIds).toHaveLength(3);
  const mine = new Set(published.deliveryIds);
  const q = queue(QUEUES.webhooks);
  const jobsForMine = async () =>
    (await q.getJobs(["waiting", "delayed", "active"])).filter((j) => (j.data as WebhookAttemptPayload).deliveryIds.some((id) => mine.has(id)));
  const [job] = await jobsForMine();
  expect(job.id).toBe(firstAttemptsJobId(published.eventId));
  expect(new Set(job.data.deliveryIds)).toEqual(mine);
  expect(job.data.attempt).toBe(1);

  // Overdue while its job still waits: the sweeper adds nothing.
  await requeueWebhookWork(new Date(Date.now() + 60_000), 0);
  expect((await jobsForMine()).map((j) => j.id)).toEqual([job.id]);

  // Redis loses the job: the sweeper re-adds the event's three first attempts as one job again.
  await job.remove();
  expect(await jobsForMine()).toEqual([]);
  await requeueWebhookWork(new Date(Date.now() + 60_000), 0);
  const again = await jobsForMine();
  expect(again.map((j) => j.id)).toEqual([job.id]);
  expect(new Set(again[0].data.deliveryIds)).toEqual(mine);

  // A worker delivers it: each endpoint gets the event once.
  await worker();
  await eventually(async () => (await prisma.webhookDelivery.count({ where: { id: { in: [...mine] }, status: "delivered" } })) === 3, 30_000);
  for (const r of rs) expect(r.received.map((x) => x.json.id)).toEqual([published.eventId]);
}, 90_000);

it("a worker sends at most WEBHOOK_MAX_IN_FLIGHT requests at once, even within one job", async () => {
  // Four endpoints that each take 400 ms to answer, one event: one job of four deliveries.
  const rs = await Promise.all([1, 2, 3, 4].map(() => startReceiver(cert, () => ({ status: 200, delayMs: 400 }))));
  receivers.push(...rs);
  const { shopId } = await stack.installShop();
  for (const r of rs) await createEndpoint({ shopId, url: r.url, events: ["subscription.cancelled"] });
  await worker({ WEBHOOK_MAX_IN_FLIGHT: "2" });
  const published = await publishDirect(shopId);
  await eventually(async () => (await prisma.webhookDelivery.count({ where: { id: { in: published.deliveryIds }, status: "delivered" } })) === 4, 30_000);
  // Two requests go out together; the other two only once those were answered.
  const arrivals = rs.map((r) => r.received[0].at).sort((a, b) => a - b);
  expect(arrivals[1] - arrivals[0]).toBeLessThan(400);
  expect(arrivals[2] - arrivals[0]).toBeGreaterThanOrEqual(380);
}, 60_000);

it("a worker SIGKILLed mid-delivery: the delivery completes after restart, with the same event id and body", async () => {
  // The first request hangs (the worker is killed while waiting for it); later ones succeed.
  const r = await startReceiver(cert, (n) => (n === 0 ? "hang" : { status: 200 }));
  receivers.push(r);
  const { shopId } = await stack.installShop();
  await createEndpoint({ shopId, url: r.url, events: ["subscription.cancelled"] });

  const first = await worker({ WEBHOOK_TIMEOUT_MS: "10000" });
  const { eventId, deliveryIds } = await publishDirect(shopId);
  await eventually(async () => r.count() === 1, 30_000);
  const exit = exited(first);
  first.kill("SIGKILL");
  await exit;
  expect((await prisma.webhookDelivery.findFirstOrThrow({ where: { id: deliveryIds[0] } })).status).toBe("pending");

  await worker({ WEBHOOK_TIMEOUT_MS: "10000" }); // its stalled-job check hands the dead worker's job on once the lock lapses
  const delivered = await eventually(async () => {
    const d = await prisma.webhookDelivery.findFirstOrThrow({ where: { id: deliveryIds[0] } });
    return d.status === "delivered" ? d : null;
  }, 60_000);
  expect(delivered.attempts).toBe(1);
  expect(r.count()).toBeGreaterThanOrEqual(2);
  expect(new Set(r.received.map((x) => x.json.id))).toEqual(new Set([eventId]));
  expect(new Set(r.received.map((x) => x.raw.toString("utf8"))).size).toBe(1);
}, 150_000);
