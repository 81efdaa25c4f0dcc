// Two delivery rules (/docs, Webhook events; docs/decisions/052-webhook-delivery.md) through the
// real worker process and real HTTPS receivers on loopback: a delivery that failed and is then
// delivered by an automatic retry of the ladder ends `delivered` (not only a manual recover); and
// uninstall, reinstall, re-enable resumes deliveries to the endpoint the uninstall disabled.
vi.hoisted(() => {
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});
import { randomUUID } from "node:crypto";
import { Job } from "bullmq";
import { prisma } from "../../../app/db.server";
import { recordInstallation } from "../../../app/domain/shop/lifecycle.server";
import { attemptJobId } from "../../../app/domain/outbound-webhooks/jobs.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import type { WorkerProcess } from "../../support/processes";
import { eventually, startStack, type Stack } from "../../support/stack";
import { makeCert, startDeliveryWorker, startReceiver, type Receiver, type TestCert } from "../../support/webhook-receivers";
import { createKey } from "../../support/fixtures";

let stack: Stack;
let cert: TestCert;
let worker: WorkerProcess;
const receivers: Receiver[] = [];

beforeAll(async () => {
  cert = makeCert();
  stack = await startStack({ workers: false });
  worker = await startDeliveryWorker(cert);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await stack?.close();
});

async function shopWithEndpoint(r: Receiver) {
  const shop = await stack.installShop("PRO");
  const { key } = await createKey({ shopId: shop.shopId, scopes: ["manage:webhooks"] });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const created = await api("POST", "/webhooks/endpoints", { url: r.url, events: ["subscription.paused"] });
  expect(created.status).toBe(201);
  return { ...shop, key, api, endpointId: created.json.id as string };
}

const publish = (shopId: string) =>
  publishEventNow({
    shopId,
    type: "subscription.paused",
    sourceKey: `retry-test:${randomUUID()}`,
    data: { contract_id: "gid://shopify/SubscriptionContract/1", customer_id: "gid://shopify/Customer/1", previous_status: "ACTIVE", new_status: "PAUSED" },
  });

const deliveryOf = (eventId: string) => prisma.webhookDelivery.findFirst({ where: { eventId } });

it("a failed delivery that an automatic retry delivers becomes delivered", async () => {
  const r = await startReceiver(cert, (n) => (n === 0 ? { status: 503 } : { status: 200 }));
  receivers.push(r);
  const shop = await shopWithEndpoint(r);
  const { eventId, deliveryIds } = await publish(shop.shopId);
  const failed = await eventually(async () => {
    const d = await deliveryOf(eventId);
    return d?.status === "failed" ? d : null;
  });
  expect(failed).toMatchObject({ attempts: 1, responseCode: 503 });
  expect(failed.nextAttemptAt).not.toBeNull();
  // The ladder's second rung (30 s), run now instead of waited for: the automatic retry, not a manual resend.
  const next = await eventually(async () => (await Job.fromId(queue(QUEUES.webhooks), attemptJobId(deliveryIds[0], 2))) ?? null);
  expect(await next.isDelayed()).toBe(true);
  await next.promote();
  const delivered = await eventually(async () => {
    const d = await deliveryOf(eventId);
    return d?.status === "delivered" ? d : null;
  });
  expect(delivered).toMatchObject({ attempts: 2, responseCode: 200, manual: false, nextAttemptAt: null });
  expect(delivered.deliveredAt).not.toBeNull();
  expect(r.count()).toBe(2);
});

it("uninstall, reinstall and re-enable resumes deliveries to the same endpoint", async () => {
  const r = await startReceiver(cert, () => ({ status: 200 }));
  receivers.push(r);
  const shop = await shopWithEndpoint(r);
  await stack.control.call("POST", `${stack.control.shop(shop.domain)}/uninstall`);
  await stack.settled(shop.domain, async () => (await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: shop.endpointId } })).enabled === false);
  expect((await publish(shop.shopId)).deliveryIds).toEqual([]);

  // Reinstall (a new grant), a new key (the old one stays revoked), then re-enable the endpoint.
  const grant = await stack.control.installShop({ shop: shop.domain });
  await recordInstallation(shop.domain, grant.accessToken, grant.scope);
  const { key } = await createKey({ shopId: shop.shopId, scopes: ["manage:webhooks"] });
  const patch = await fetch(`${stack.appUrl}/api/admin/v1/webhooks/endpoints/${shop.endpointId}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ enabled: true }),
  });
  expect(patch.status).toBe(200);
  expect(await patch.json()).toMatchObject({ id: shop.endpointId, enabled: true, disabled_reason: null });

  const after = await publish(shop.shopId);
  expect(after.deliveryIds).toHaveLength(1);
  await eventually(async () => (await deliveryOf(after.eventId))?.status === "delivered");
  expect(r.received.map((x) => x.json.id)).toEqual([after.eventId]);
});
