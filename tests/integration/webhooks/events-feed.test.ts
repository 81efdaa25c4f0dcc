// GET /events (docs/decisions/126-events-feed-and-listen.md): each published event with the exact
// body its deliveries carry; a real delivery to a real HTTPS receiver is compared byte for byte
// and its signature verified against the feed's body. Filters, 30 days, test events left out,
// manage:webhooks required; the Webhooks page's delivery log shows the body sent.
vi.hoisted(() => {
  // The in-process web app (endpoint creation) admits the loopback receiver too.
  process.env.WEBHOOK_ALLOWED_PRIVATE_CIDRS = "127.0.0.1/32";
});
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { webhooksPageData } from "../../../app/embedded/webhooks/page.server";
import { eventually, startStack, type Stack } from "../../support/stack";
import type { WorkerProcess } from "../../support/processes";
import { documentedVerifier, makeCert, startDeliveryWorker, startReceiver, type Receiver, type TestCert } from "../../support/webhook-receivers";
import { createKey } from "../../support/fixtures";

let stack: Stack;
let cert: TestCert;
let worker: WorkerProcess;
let receiver: Receiver;

beforeAll(async () => {
  cert = makeCert();
  stack = await startStack({ workers: false });
  worker = await startDeliveryWorker(cert);
  receiver = await startReceiver(cert);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await stack?.close();
});

type Feed = { data: Array<{ id: string; type: string; created_at: string; body: string }>; next_cursor: string | null; error?: { code: string } };

async function shopWithKey(scopes = ["manage:webhooks"]) {
  const shop = await stack.installShop("PRO");
  const { key } = await createKey({ shopId: shop.shopId, name: "feed", scopes, kind: "SECRET" });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Feed & Record<string, unknown> };
  };
  return { ...shop, key, api };
}

const publish = (shopId: string, type: "subscription.paused" | "subscription.cancelled" = "subscription.paused", occurredAt?: Date) =>
  publishEventNow({
    shopId,
    type,
    sourceKey: `feed-test:${randomUUID()}`,
    occurredAt,
    data: {
      contract_id: "gid://shopify/SubscriptionContract/77",
      customer_id: "gid://shopify/Customer/7",
      previous_status: "ACTIVE",
      new_status: type === "subscription.paused" ? "PAUSED" : "CANCELLED",
    },
  });

it("lists each event with the byte-identical body its delivery carried; the delivery's signature verifies against it; the page shows the body sent", async () => {
  const verify = await documentedVerifier();
  const shop = await shopWithKey();
  const endpoint = await shop.api("POST", "/webhooks/endpoints", { url: receiver.url, events: ["subscription.paused"] });
  expect(endpoint.status).toBe(201);
  const published = await publish(shop.shopId);
  await eventually(async () => receiver.received.some((r) => r.json.id === published.eventId), 30_000);
  const got = receiver.received.find((r) => r.json.id === published.eventId)!;

  const feed = await shop.api("GET", "/events");
  expect(feed.status).toBe(200);
  const item = feed.json.data.find((e) => e.id === published.eventId)!;
  expect(item).toMatchObject({ id: published.eventId, type: "subscription.paused" });
  expect(Buffer.from(item.body, "utf8").equals(Buffer.from(got.raw))).toBe(true);
  expect(verify(item.body, String(got.headers["x-service-signature"]), String(endpoint.json.secret))).toBe(true);

  const shopRow = await prisma.shop.findUniqueOrThrow({ where: { id: shop.shopId } });
  const page = await webhooksPageData(shopRow, new URLSearchParams());
  expect(page.deliveries.find((d) => d.eventId === published.eventId)?.body).toBe(item.body);
});

it("filters by type and time, keeps 30 days, leaves out test events, pages, and needs manage:webhooks", async () => {
  const shop = await shopWithKey();
  const paused = await publish(shop.shopId, "subscription.paused");
  const cancelled = await publish(shop.shopId, "subscription.cancelled");
  const old = await publish(shop.shopId, "subscription.cancelled", new Date(Date.now() - 31 * 86_400_000));
  const endpoint = await shop.api("POST", "/webhooks/endpoints", { url: receiver.url, events: ["subscription.paused"] });
  const test = await shop.api("POST", `/webhooks/endpoints/${endpoint.json.id}/test`, {});
  expect([200, 201, 202], JSON.stringify(test.json)).toContain(test.status);

  const all = await shop.api("GET", "/events");
  expect(all.json.data.map((e) => e.id)).toEqual([cancelled.eventId, paused.eventId]);
  expect(all.json.data.map((e) => e.id)).not.toContain(old.eventId);
  const byType = await shop.api("GET", "/events?type=subscription.paused");
  expect(byType.json.data.map((e) => e.id)).toEqual([paused.eventId]);
  expect((await shop.api("GET", `/events?created_after=${new Date(Date.now() + 60_000).toISOString()}`)).json.data).toEqual([]);
  const first = await shop.api("GET", "/events?limit=1");
  expect(first.json.data.map((e) => e.id)).toEqual([cancelled.eventId]);
  const second = await shop.api("GET", `/events?limit=1&cursor=${encodeURIComponent(first.json.next_cursor!)}`);
  expect(second.json.data.map((e) => e.id)).toEqual([paused.eventId]);
  expect(second.json.next_cursor).toBeNull();

  expect((await shop.api("GET", "/events?type=subscription.skipped")).json.error?.code).toBe("invalid_request");
  const reader = await shopWithKey(["read:subscriptions"]);
  const refused = await reader.api("GET", "/events");
  expect(refused.status).toBe(403);
  expect(refused.json.error?.code).toBe("insufficient_scope");
});
