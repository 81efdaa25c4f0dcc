// Signed at-least-once delivery to real HTTPS receivers on loopback, by the real worker process
// (workers/main.ts, trusting the test certificate via NODE_EXTRA_CA_CERTS, receivers admitted by
// WEBHOOK_ALLOWED_PRIVATE_CIDRS=127.0.0.1/32, the attempt timeout lowered to 3 s).
// docs/decisions/052-webhook-delivery.md.
vi.hoisted(() => {
  // The in-process web app (endpoint creation) admits the loopback receivers too.
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});
import { randomUUID } from "node:crypto";
import { Job } from "bullmq";
import { prisma } from "../../../app/db.server";

import { setAppPlan } from "../../../app/domain/shop/lifecycle.server";
import { attemptJobId } from "../../../app/domain/outbound-webhooks/jobs.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import type { WorkerProcess } from "../../support/processes";
import { postShopifyWebhook } from "../../support/shopify-webhooks";
import { eventually, startStack, type Stack } from "../../support/stack";
import { documentedVerifier, makeCert, startDeliveryWorker, startReceiver, type Receiver, type TestCert } from "../../support/webhook-receivers";
import { createKey } from "../../support/fixtures";
import { deliveryWithLog, withAttemptLog } from "../../support/delivery-log";

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

async function receiver(behaviour?: Parameters<typeof startReceiver>[1]) {
  const r = await startReceiver(cert, behaviour);
  receivers.push(r);
  return r;
}

async function shopWithKey(plan: "PRO" | "FREE" = "PRO") {
  const shop = await stack.installShop(plan);
  const { key } = await createKey({ shopId: shop.shopId, name: "hooks", scopes: ["manage:webhooks"], kind: "SECRET" });
  const api = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as T };
  };
  const createEndpoint = async (url: string, events: string[]) => {
    const res = await api<{ id: string; secret: string }>("POST", "/webhooks/endpoints", { url, events });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json;
  };
  return { ...shop, api, createEndpoint };
}

let seq = 0;
const publish = (shopId: string, type: "subscription.paused" | "subscription.cancelled" = "subscription.paused") =>
  publishEventNow({
    shopId,
    type,
    sourceKey: `delivery-test:${randomUUID()}`,
    data: {
      contract_id: `gid://shopify/SubscriptionContract/${++seq}`,
      customer_id: "gid://shopify/Customer/1",
      previous_status: "ACTIVE",
      new_status: type === "subscription.paused" ? "PAUSED" : "CANCELLED",
    },
  });

/** The ladder as /docs publishes it (0 s, 30 s, 2 m, 10 m, 1 h, 6 h), written out here, not read from the code's table. */
const SPEC_LADDER_MS = [0, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];

const deliveryFor = async (eventId: string) => {
  const d = await deliveryWithLog({ eventId });
  if (!d) throw new Error(`no delivery of event ${eventId}`);
  return d;
};
const settledDelivery = (eventId: string, status: string, timeoutMs = 20_000) =>
  eventually(async () => {
    const d = await deliveryWithLog({ eventId });
    return d && d.status === status ? d : null;
  }, timeoutMs);

describe("delivery to real HTTPS receivers", () => {
  it("a paused contract reaches the receiver signed: the documented verifier accepts it and refuses any byte change", async () => {
    const verify = await documentedVerifier();
    const r = await receiver();
    const shop = await shopWithKey();
    const endpoint = await shop.createEndpoint(r.url, ["subscription.paused"]);
    expect(endpoint.secret).toMatch(/^whsec_/);
    // The secret is sealed at rest, never stored as given.
    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.secretCiphertext).not.toContain(endpoint.secret);

    const contract = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(shop.domain)}/contracts`, {});
    // The worker process mirrors the contract from its create webhook first.
    await stack.settled(shop.domain, () => prisma.contract.findFirst({ where: { shopId: shop.shopId, contractGid: contract.id } }), 30_000);
    const { key } = await createKey({ shopId: shop.shopId, name: "writer", scopes: ["write:subscriptions"], kind: "SECRET" });
    const paused = await fetch(`${stack.appUrl}/api/admin/v1/subscriptions/${encodeURIComponent(contract.id)}/pause`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Idempotency-Key": randomUUID() },
    });
    expect(paused.status).toBe(200);
    await eventually(async () => r.count() >= 1, 30_000);
    const got = r.received[0];
    expect(got.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(got.headers["user-agent"]).toBe("SERVICE-Webhooks/1.0");
    expect(got.headers["x-service-event-type"]).toBe("subscription.paused");
    expect(got.headers["x-service-event-id"]).toBe(got.json.id);
    expect(got.headers["x-service-shop-domain"]).toBe(shop.domain);
    expect(got.headers["x-service-api-version"]).toBe("v1");
    expect(got.json).toMatchObject({ type: "subscription.paused", api_version: "v1", shop_domain: shop.domain });
    expect(got.json.id).toMatch(/^evt_/);
    expect(got.json.data).toEqual({
      contract_id: contract.id,
      customer_id: expect.stringMatching(/^gid:\/\/shopify\/Customer\//),
      previous_status: "ACTIVE",
      new_status: "PAUSED",
    });

    const header = String(got.headers["x-service-signature"]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(got.raw, header, endpoint.secret)).toBe(true);
    for (let i = 0; i < got.raw.length; i += Math.max(1, Math.floor(got.raw.length / 25))) {
      const tampered = Buffer.from(got.raw);
      tampered[i] ^= 0x01;
      expect(verify(tampered, header, endpoint.secret), `byte ${i} changed`).toBe(false);
    }
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(verify(got.raw, header.replace(`t=${t}`, `t=${t + 1}`), endpoint.secret)).toBe(false);
    expect(verify(got.raw, header, `${endpoint.secret}x`)).toBe(false);
    expect(verify(got.raw, header, endpoint.secret, 300, t + 301)).toBe(false); // outside the freshness window

    const d = await settledDelivery(got.json.id, "delivered");
    expect(d).toMatchObject({ attempts: 1, responseCode: 200, lastError: null, manual: false });
    // The receiver's body is never stored anywhere.
    expect(JSON.stringify(await withAttemptLog(await prisma.webhookDelivery.findMany({ where: { shopId: shop.shopId } })))).not.toContain(
      "SECRET-RECEIVER-TEXT",
    );

    // The log over the API, filtered.
    const log = await shop.api<{ data: Array<{ event_id: string; status: string }> }>(
      "GET",
      `/webhooks/deliveries?endpoint_id=${endpoint.id}&status=delivered&event=subscription.paused`,
    );
    expect(log.status).toBe(200);
    expect(log.json.data.map((x) => [x.event_id, x.status])).toEqual([[got.json.id, "delivered"]]);
  }, 60_000);

  it("any 2xx is delivered (202 too)", async () => {
    const r = await receiver(() => ({ status: 202 }));
    const shop = await shopWithKey();
    await shop.createEndpoint(r.url, ["subscription.paused"]);
    const { eventId } = await publish(shop.shopId);
    const d = await settledDelivery(eventId, "delivered");
    expect(d).toMatchObject({ responseCode: 202, attempts: 1, nextAttemptAt: null });
    // Times written by the worker's single-statement update agree with those Prisma wrote (no zone shift).
    expect(d.deliveredAt!.getTime()).toBe(d.attemptLog[0].finishedAt.getTime());
    expect(Math.abs(d.deliveredAt!.getTime() - d.createdAt.getTime())).toBeLessThan(60_000);
  });

  it("3xx, a timeout and 5xx are retried on the exact ladder 0 s, 30 s, 2 m, 10 m, 1 h, 6 h; the sixth failure exhausts; every attempt carries the same event and body", async () => {
    const answers = [
      { status: 302, location: "https://127.0.0.1:1/elsewhere" },
      { status: 200, delayMs: 8000 },
      { status: 500 },
      { status: 502 },
      { status: 503 },
      { status: 500 },
    ];
    const r = await receiver((n) => answers[n] ?? { status: 500 });
    const shop = await shopWithKey();
    const endpoint = await shop.createEndpoint(r.url, ["subscription.paused"]);
    const { eventId, deliveryIds } = await publish(shop.shopId);
    expect(deliveryIds).toHaveLength(1);
    const id = deliveryIds[0];
    const expectedErrors = [
      /^HTTP 302: redirects are not followed$/,
      /^timed out after 3000 ms/,
      /^HTTP 500 from the endpoint$/,
      /^HTTP 502/,
      /^HTTP 503/,
      /^HTTP 500/,
    ];

    for (let attempt = 1; attempt <= 6; attempt++) {
      const d = await eventually(async () => {
        const row = await deliveryFor(eventId);
        return row.attempts === attempt ? row : null;
      }, 20_000);
      const made = d.attemptLog[attempt - 1];
      expect(made.error).toMatch(expectedErrors[attempt - 1]);
      expect(d.lastError).toMatch(expectedErrors[attempt - 1]);
      if (attempt < 6) {
        expect(d.status).toBe("failed");
        // The next attempt is scheduled exactly one rung of the ladder after this one finished.
        expect(d.nextAttemptAt!.getTime() - made.finishedAt.getTime()).toBe(SPEC_LADDER_MS[attempt]);
        // The controllable clock: instead of waiting, the delayed job of the next attempt is run now.
        const next = await eventually(async () => (await Job.fromId(queue(QUEUES.webhooks), attemptJobId(id, attempt + 1))) ?? null, 10_000);
        expect(await next.isDelayed()).toBe(true);
        expect(next.opts.delay).toBeGreaterThan(SPEC_LADDER_MS[attempt] - 5_000);
        await next.promote();
      } else {
        expect(d.status).toBe("exhausted");
        expect(d.nextAttemptAt).toBeNull();
      }
    }
    expect(r.count()).toBe(6);
    expect(new Set(r.received.map((x) => x.json.id))).toEqual(new Set([eventId]));
    expect(new Set(r.received.map((x) => x.raw.toString("utf8"))).size).toBe(1);
    expect((await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).consecutiveExhausted).toBe(1);
  }, 90_000);

  it("410 exhausts at once", async () => {
    const r = await receiver(() => ({ status: 410 }));
    const shop = await shopWithKey();
    await shop.createEndpoint(r.url, ["subscription.paused"]);
    const { eventId } = await publish(shop.shopId);
    const d = await settledDelivery(eventId, "exhausted");
    expect(d).toMatchObject({ attempts: 1, responseCode: 410, nextAttemptAt: null });
    expect(d.lastError).toMatch(/410/);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.count()).toBe(1);
  });

  it("ten consecutive exhausted deliveries disable the endpoint, any success resets the count, and events while disabled are never delivered, not even after re-enabling", async () => {
    const r = await receiver(() => ({ status: 410 }));
    const shop = await shopWithKey();
    const endpoint = await shop.createEndpoint(r.url, ["subscription.paused"]);
    const row = () => prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });

    const nine = await Promise.all(Array.from({ length: 9 }, () => publish(shop.shopId)));
    for (const p of nine) await settledDelivery(p.eventId, "exhausted");
    expect(await row()).toMatchObject({ enabled: true, consecutiveExhausted: 9 });

    r.respond(() => ({ status: 200 }));
    await settledDelivery((await publish(shop.shopId)).eventId, "delivered");
    expect(await row()).toMatchObject({ enabled: true, consecutiveExhausted: 0 });

    r.respond(() => ({ status: 410 }));
    for (let i = 0; i < 10; i++) await settledDelivery((await publish(shop.shopId)).eventId, "exhausted");
    expect(await row()).toMatchObject({ enabled: false, disabledReason: "exhausted", consecutiveExhausted: 10 });
    const got = await shop.api<{ enabled: boolean; disabled_reason: string }>("GET", `/webhooks/endpoints/${endpoint.id}`);
    expect(got.json).toMatchObject({ enabled: false, disabled_reason: "exhausted" });

    r.respond(() => ({ status: 200 }));
    const whileDisabled = [await publish(shop.shopId), await publish(shop.shopId)];
    expect(whileDisabled.map((p) => p.deliveryIds)).toEqual([[], []]);

    const enabled = await shop.api("PATCH", `/webhooks/endpoints/${endpoint.id}`, { enabled: true });
    expect(enabled.json).toMatchObject({ enabled: true, disabled_reason: null });
    expect(await row()).toMatchObject({ enabled: true, consecutiveExhausted: 0 });
    const after = await publish(shop.shopId);
    await settledDelivery(after.eventId, "delivered");
    // Room for any replay to show up: none does.
    await new Promise((res) => setTimeout(res, 1500));
    const seen = new Set(r.received.map((x) => x.json.id));
    for (const p of whileDisabled) expect(seen.has(p.eventId)).toBe(false);
    expect(seen.has(after.eventId)).toBe(true);
  }, 120_000);

  it("uninstall disables every endpoint; nothing is queued or delivered afterwards", async () => {
    const r = await receiver();
    const shop = await shopWithKey();
    const endpoints = [await shop.createEndpoint(r.url, ["subscription.paused"]), await shop.createEndpoint(`${r.url}/2`, ["subscription.paused"])];
    await stack.control.call("POST", `${stack.control.shop(shop.domain)}/uninstall`);
    await stack.sim.idle();
    expect(
      await prisma.webhookEndpoint.findMany({ where: { id: { in: endpoints.map((e) => e.id) } }, select: { enabled: true, disabledReason: true } }),
    ).toEqual([
      { enabled: false, disabledReason: "uninstalled" },
      { enabled: false, disabledReason: "uninstalled" },
    ]);
    const p = await publish(shop.shopId);
    expect(p.deliveryIds).toEqual([]);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.count()).toBe(0);
  });

  it("below Pro, events stop at the next publish; re-upgrading resumes", async () => {
    const r = await receiver();
    const shop = await shopWithKey();
    await shop.createEndpoint(r.url, ["subscription.paused"]);
    await setAppPlan(shop.domain, "FREE");
    const free = await publish(shop.shopId);
    expect(free.created).toBe(true);
    expect(free.deliveryIds).toEqual([]);
    await setAppPlan(shop.domain, "PRO");
    const pro = await publish(shop.shopId);
    await settledDelivery(pro.eventId, "delivered");
    expect(r.received.map((x) => x.json.id)).toEqual([pro.eventId]);
  });

  it("test event, resend and recover make manual attempts, marked in the log", async () => {
    const verify = await documentedVerifier();
    const r = await receiver();
    const shop = await shopWithKey();
    const endpoint = await shop.createEndpoint(r.url, ["subscription.cancelled", "subscription.paused"]);

    const test = await shop.api<{ id: string; manual: boolean; event: string; status: string }>("POST", `/webhooks/endpoints/${endpoint.id}/test`, {
      event: "subscription.cancelled",
    });
    expect(test.status).toBe(202);
    expect(test.json).toMatchObject({ manual: true, event: "subscription.cancelled", status: "pending" });
    await eventually(async () => r.count() === 1);
    expect(r.received[0].json).toMatchObject({ type: "subscription.cancelled", test: true });
    expect(verify(r.received[0].raw, String(r.received[0].headers["x-service-signature"]), endpoint.secret)).toBe(true);

    // Resend a delivered delivery: same event id and body, a second attempt marked manual.
    const { eventId } = await publish(shop.shopId);
    const delivered = await settledDelivery(eventId, "delivered");
    const resent = await shop.api<{ manual: boolean }>("POST", `/webhooks/deliveries/${delivered.id}/resend`);
    expect(resent.status).toBe(202);
    await eventually(async () => (await deliveryFor(eventId)).attempts === 2);
    const detail = await shop.api<{ status: string; attempt_log: Array<{ number: number; manual: boolean; outcome: string }> }>(
      "GET",
      `/webhooks/deliveries/${delivered.id}`,
    );
    expect(detail.json.status).toBe("delivered");
    expect(detail.json.attempt_log.map((a) => [a.number, a.manual, a.outcome])).toEqual([
      [1, false, "delivered"],
      [2, true, "delivered"],
    ]);
    const copies = r.received.filter((x) => x.json.id === eventId);
    expect(copies).toHaveLength(2);
    expect(copies[0].raw.equals(copies[1].raw)).toBe(true);

    // Recover: every exhausted delivery since a time gets one manual attempt.
    r.respond(() => ({ status: 410 }));
    const since = new Date(Date.now() - 1000).toISOString();
    const lost = [await publish(shop.shopId), await publish(shop.shopId)];
    for (const p of lost) await settledDelivery(p.eventId, "exhausted");
    r.respond(() => ({ status: 200 }));
    const recovered = await shop.api<{ queued: number }>("POST", `/webhooks/endpoints/${endpoint.id}/recover`, { since });
    expect(recovered.status).toBe(202);
    expect(recovered.json.queued).toBe(2);
    for (const p of lost) {
      const d = await settledDelivery(p.eventId, "delivered");
      expect(d.manual).toBe(true);
      expect(d.attemptLog.map((a) => [a.manual, a.outcome])).toEqual([
        [false, "exhausted"],
        [true, "delivered"],
      ]);
    }
    // Manual failures never counted towards disabling; the success reset the count.
    expect((await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).consecutiveExhausted).toBe(0);
  }, 60_000);

  it("an inbound customer_payment_methods/update is stored, announced as customer.payment_method_updated and delivered once, however often Shopify repeats it", async () => {
    const r = await receiver();
    const shop = await shopWithKey();
    await shop.createEndpoint(r.url, ["customer.payment_method_updated"]);
    const payload = {
      admin_graphql_api_id: "gid://shopify/CustomerPaymentMethod/pm_123",
      token: "pm_123",
      customer_id: 4242,
      admin_graphql_api_customer_id: "gid://shopify/Customer/4242",
      instrument_type: "CustomerCreditCard",
      payment_instrument: { last_digits: "4242", month: 1, year: 2030, name: "Jane Shopper" },
    };
    const webhookId = randomUUID();
    const post = () => postShopifyWebhook(stack.appUrl, "customer_payment_methods/update", shop.domain, payload, { webhookId });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    await eventually(async () => r.count() >= 1);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.count()).toBe(1);
    expect(r.received[0].json).toMatchObject({
      type: "customer.payment_method_updated",
      data: { customer_id: "gid://shopify/Customer/4242", payment_method_id: "gid://shopify/CustomerPaymentMethod/pm_123", revoked: false },
    });
    // The card holder's name never leaves.
    expect(r.received[0].raw.toString("utf8")).not.toContain("Jane");
    expect(await prisma.event.count({ where: { shopId: shop.shopId } })).toBe(1);
    // Processed once its job (the customer's contracts read again for their card) has ended.
    await eventually(async () => (await prisma.inboundWebhook.findUniqueOrThrow({ where: { webhookId } })).processedAt !== null);
  });
});
