// Webhook management over the Admin API (scope manage:webhooks): the catalogue, create (secret
// once), list, get, PATCH (events, enabled; never the URL), DELETE, the ten-endpoint cap, event
// names, tenancy, scope and plan gate, and the delivery log's filters and keyset paging.
// docs/decisions/054-webhook-management.md. No worker runs here: nothing is dialled.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";

import { setAppPlan } from "../../../app/domain/shop/lifecycle.server";
import { EVENT_TYPES } from "../../../app/domain/outbound-webhooks/catalogue";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { useStack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const stack = useStack({ workers: false }, 120_000);

const PUBLIC_URL = "https://93.184.215.14/hooks";

async function client(scopes: string[] = ["manage:webhooks"], plan: "PRO" | "FREE" = "PRO") {
  const shop = await stack.installShop(plan);
  const { key } = await createKey({ shopId: shop.shopId, name: "k", scopes: scopes as never, kind: "SECRET" });
  const api = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.appUrl}/api/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as T & { error?: { code: string; message: string } } };
  };
  return { ...shop, api };
}

it("GET /webhooks/events lists the fifteen events with their data fields", async () => {
  const { api } = await client();
  const res = await api<{ data: Array<{ name: string; data_fields: string[] }> }>("GET", "/webhooks/events");
  expect(res.status).toBe(200);
  expect(res.json.data.map((e) => e.name)).toEqual(EVENT_TYPES);
  expect(res.json.data).toHaveLength(15);
  expect(res.json.data.find((e) => e.name === "subscription.cancelled")!.data_fields).toEqual(["contract_id", "customer_id", "previous_status", "new_status"]);
  // No field that could carry a name, an e-mail or an address, in any event.
  for (const e of res.json.data) for (const f of e.data_fields) expect(f, `${e.name}.${f}`).not.toMatch(/name|email|address|phone|message/);
});

it("create returns the whsec_ secret once; list and get never return it; the URL cannot change; delete removes it", async () => {
  const { api, shopId } = await client();
  const created = await api<{ id: string; secret: string; url: string; events: string[]; enabled: boolean }>("POST", "/webhooks/endpoints", {
    url: PUBLIC_URL,
    events: ["subscription.paused", "subscription.paused", "gift.sent"],
  });
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({ url: PUBLIC_URL, events: ["subscription.paused", "gift.sent"], enabled: true });
  expect(created.json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  const stored = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.json.id } });
  expect(stored.secretCiphertext.startsWith("enc:v1:")).toBe(true);
  expect(JSON.stringify(stored)).not.toContain(created.json.secret.slice(6));

  const list = await api<{ data: unknown[] }>("GET", "/webhooks/endpoints");
  const one = await api("GET", `/webhooks/endpoints/${created.json.id}`);
  expect(JSON.stringify([list.json, one.json])).not.toContain(created.json.secret);
  expect(one.json).not.toHaveProperty("secret");

  const urlChange = await api("PATCH", `/webhooks/endpoints/${created.json.id}`, { url: "https://93.184.215.15/x" });
  expect(urlChange.status).toBe(400);
  expect(urlChange.json.error?.code).toBe("invalid_request");
  const emptyPatch = await api("PATCH", `/webhooks/endpoints/${created.json.id}`, {});
  expect(emptyPatch.status).toBe(400);
  const patched = await api("PATCH", `/webhooks/endpoints/${created.json.id}`, { events: ["subscription.cancelled"], enabled: false });
  expect(patched.json).toMatchObject({ url: PUBLIC_URL, events: ["subscription.cancelled"], enabled: false, disabled_reason: "merchant" });

  const deleted = await api("DELETE", `/webhooks/endpoints/${created.json.id}`);
  expect(deleted).toEqual({ status: 200, json: { id: created.json.id, deleted: true } });
  expect((await api("GET", `/webhooks/endpoints/${created.json.id}`)).status).toBe(404);
  expect(await prisma.webhookEndpoint.count({ where: { shopId } })).toBe(0);
});

it("unknown and reserved event names, and an empty list, are 400 invalid_request saying which", async () => {
  const { api } = await client();
  for (const [events, why] of [
    [["subscription.skipped"], /reserved event "subscription.skipped"/],
    [["bundle.generated"], /reserved event "bundle.generated"/],
    [["subscription.*"], /unknown event "subscription\.\*"/],
    [["subscription.paused", "nope"], /unknown event "nope"/],
    [[], /at least one/],
  ] as const) {
    const res = await api("POST", "/webhooks/endpoints", { url: PUBLIC_URL, events });
    expect(res.status, JSON.stringify(events)).toBe(400);
    expect(res.json.error?.code).toBe("invalid_request");
    expect(res.json.error?.message).toMatch(why);
  }
});

it("at most ten active endpoints: the eleventh is refused, disabling one makes room, re-enabling is held to the cap", async () => {
  const { api } = await client();
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await api<{ id: string }>("POST", "/webhooks/endpoints", { url: `${PUBLIC_URL}/${i}`, events: ["subscription.paused"] });
    expect(res.status).toBe(201);
    ids.push(res.json.id);
  }
  const eleventh = await api("POST", "/webhooks/endpoints", { url: `${PUBLIC_URL}/10`, events: ["subscription.paused"] });
  expect(eleventh.status).toBe(400);
  expect(eleventh.json.error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/at most 10 active/) });

  await api("PATCH", `/webhooks/endpoints/${ids[0]}`, { enabled: false });
  const replacement = await api("POST", "/webhooks/endpoints", { url: `${PUBLIC_URL}/11`, events: ["subscription.paused"] });
  expect(replacement.status).toBe(201);
  const reenable = await api("PATCH", `/webhooks/endpoints/${ids[0]}`, { enabled: true });
  expect(reenable.status).toBe(400);
  expect(reenable.json.error?.message).toMatch(/at most 10 active/);
});

it("another shop's endpoints and deliveries are 404; the scope and the plan gate hold", async () => {
  const owner = await client();
  const other = await client();
  const created = await owner.api<{ id: string }>("POST", "/webhooks/endpoints", { url: PUBLIC_URL, events: ["subscription.paused"] });
  const test = await owner.api<{ id: string }>("POST", `/webhooks/endpoints/${created.json.id}/test`, {});
  expect(test.status).toBe(202);
  for (const [method, path, body] of [
    ["GET", `/webhooks/endpoints/${created.json.id}`, undefined],
    ["PATCH", `/webhooks/endpoints/${created.json.id}`, { enabled: false }],
    ["DELETE", `/webhooks/endpoints/${created.json.id}`, undefined],
    ["POST", `/webhooks/endpoints/${created.json.id}/test`, {}],
    ["POST", `/webhooks/endpoints/${created.json.id}/recover`, { since: "2026-01-01T00:00:00Z" }],
    ["GET", `/webhooks/deliveries/${test.json.id}`, undefined],
    ["POST", `/webhooks/deliveries/${test.json.id}/resend`, undefined],
  ] as const) {
    const res = await other.api(method, path, body);
    expect(res.status, `${method} ${path}`).toBe(404);
    expect(res.json.error?.code).toBe("not_found");
  }
  expect((await other.api<{ data: unknown[] }>("GET", "/webhooks/deliveries")).json.data).toEqual([]);
  expect((await owner.api<{ enabled: boolean }>("GET", `/webhooks/endpoints/${created.json.id}`)).json.enabled).toBe(true);

  const reader = await client(["read:subscriptions"]);
  const refused = await reader.api("GET", "/webhooks/endpoints");
  expect(refused.status).toBe(403);
  expect(refused.json.error).toMatchObject({ code: "insufficient_scope", message: expect.stringContaining("manage:webhooks") });

  const free = await client(["manage:webhooks"], "FREE");
  expect((await free.api("GET", "/webhooks/endpoints")).json.error?.code).toBe("plan_upgrade_required");
  await setAppPlan(free.domain, "PRO");
  expect((await free.api("GET", "/webhooks/endpoints")).status).toBe(200);
});

it("the delivery log filters by endpoint, status and event and pages by keyset with shop-bound cursors", async () => {
  const { api, shopId } = await client();
  const a = await api<{ id: string }>("POST", "/webhooks/endpoints", { url: `${PUBLIC_URL}/a`, events: ["subscription.paused", "subscription.cancelled"] });
  const b = await api<{ id: string }>("POST", "/webhooks/endpoints", { url: `${PUBLIC_URL}/b`, events: ["subscription.paused"] });
  const publish = (type: "subscription.paused" | "subscription.cancelled") =>
    publishEventNow({
      shopId,
      type,
      sourceKey: `log:${randomUUID()}`,
      data: {
        contract_id: "gid://shopify/SubscriptionContract/5",
        customer_id: "gid://shopify/Customer/5",
        previous_status: "ACTIVE",
        new_status: type === "subscription.paused" ? "PAUSED" : "CANCELLED",
      },
    });
  for (let i = 0; i < 4; i++) await publish("subscription.paused"); // 8 deliveries (a and b)
  for (let i = 0; i < 3; i++) await publish("subscription.cancelled"); // 3 deliveries (a)
  // A replayed source is the same event: no second event, no second delivery.
  const sourceKey = `log:${randomUUID()}`;
  const data = {
    contract_id: "gid://shopify/SubscriptionContract/6",
    customer_id: "gid://shopify/Customer/6",
    previous_status: "ACTIVE" as const,
    new_status: "PAUSED" as const,
  };
  const first = await publishEventNow({ shopId, type: "subscription.paused", sourceKey, data });
  const replay = await publishEventNow({ shopId, type: "subscription.paused", sourceKey, data });
  // A replay calls no Flow trigger either (docs/decisions/128-flow-triggers.md).
  expect(replay).toEqual({ eventId: first.eventId, created: false, deliveryIds: [], flowCall: false });
  // An unlisted data field cannot be published.
  await expect(
    publishEventNow({ shopId, type: "subscription.paused", sourceKey: `log:${randomUUID()}`, data: { ...data, email: "x@example.com" } as typeof data }),
  ).rejects.toThrow();

  type Page = { data: Array<{ id: string; endpoint_id: string; event: string; status: string; created_at: string }>; next_cursor: string | null };
  const all: Page["data"] = [];
  let cursor: string | null = null;
  do {
    const q: string = `/webhooks/deliveries?endpoint_id=${a.json.id}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await api<Page>("GET", q);
    expect(res.status).toBe(200);
    all.push(...res.json.data);
    cursor = res.json.next_cursor;
  } while (cursor);
  expect(all).toHaveLength(8); // 4 + 3 + the replayed source once
  expect(new Set(all.map((d) => d.id)).size).toBe(8);
  expect(all.every((d) => d.endpoint_id === a.json.id && d.status === "pending")).toBe(true);
  const keys = all.map((d) => [d.created_at, d.id].join(" "));
  expect(keys).toEqual([...keys].sort().reverse());

  const cancelled = await api<Page>("GET", "/webhooks/deliveries?event=subscription.cancelled&status=PENDING");
  expect(cancelled.json.data).toHaveLength(3);
  expect((await api<Page>("GET", `/webhooks/deliveries?endpoint_id=${b.json.id}`)).json.data).toHaveLength(5);
  expect((await api<Page>("GET", "/webhooks/deliveries?status=delivered")).json.data).toEqual([]);
  expect((await api("GET", "/webhooks/deliveries?status=lost")).json.error?.code).toBe("invalid_request");
  expect((await api("GET", "/webhooks/deliveries?event=subscription.skipped")).json.error?.code).toBe("invalid_request");

  // A cursor continues only its own list, and only for its own shop.
  const firstPage = await api<Page>("GET", `/webhooks/deliveries?endpoint_id=${a.json.id}&limit=2`);
  const c = encodeURIComponent(firstPage.json.next_cursor!);
  expect((await api("GET", `/webhooks/deliveries?endpoint_id=${b.json.id}&limit=2&cursor=${c}`)).json.error?.code).toBe("invalid_cursor");
  const stranger = await client();
  expect((await stranger.api("GET", `/webhooks/deliveries?endpoint_id=${a.json.id}&limit=2&cursor=${c}`)).json.error?.code).toBe("invalid_cursor");
});

/** A subscription.paused delivery of the shop, dated `ageDays` back with `data` set on its row. */
async function backdatedDelivery(shopId: string, ageDays: number, data: { status: "delivered" | "failed"; nextAttemptAt?: null }) {
  const p = await publishEventNow({
    shopId,
    type: "subscription.paused",
    sourceKey: `backdated:${randomUUID()}`,
    data: { contract_id: "gid://shopify/SubscriptionContract/7", customer_id: "gid://shopify/Customer/7", previous_status: "ACTIVE", new_status: "PAUSED" },
  });
  const createdAt = new Date(Date.now() - ageDays * 86_400_000);
  await prisma.webhookDelivery.updateMany({ where: { id: p.deliveryIds[0] }, data: { createdAt, ...data } });
  return { id: p.deliveryIds[0], createdAt };
}

it("the daily sweep prunes deliveries (and their attempt log) past 30 days", async () => {
  const { api, shopId } = await client();
  const endpoint = await api<{ id: string }>("POST", "/webhooks/endpoints", { url: PUBLIC_URL, events: ["subscription.paused"] });
  const { runDailySweep } = await import("../../../app/domain/housekeeping/daily-sweep.server");
  const now = new Date();
  const ids: string[] = [];
  // 62 days back is in a month wholly past the 30 days, whichever day today is: pruned (its month
  // dropped whole, or its row deleted from the DEFAULT partition; docs/decisions/169). 29 days back is kept.
  for (const age of [62, 29]) {
    const { id, createdAt: created } = await backdatedDelivery(shopId, age, { status: "delivered", nextAttemptAt: null });
    await prisma.webhookAttempt.create({
      data: {
        deliveryId: id,
        deliveryCreatedAt: created,
        number: 1,
        startedAt: created,
        finishedAt: created,
        responseCode: 200,
        outcome: "delivered",
      },
    });
    ids.push(id);
  }
  await runDailySweep(now);
  expect(await prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.json.id }, select: { id: true } })).toEqual([{ id: ids[1] }]);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: ids[0] } })).toBe(0);
  expect(await prisma.webhookAttempt.count({ where: { deliveryId: ids[1] } })).toBe(1);
});

it("the delivery log shows its last 30 days: an older delivery still stored in its month is not listed, read, resent or recovered", async () => {
  const { api, shopId } = await client();
  const endpoint = await api<{ id: string }>("POST", "/webhooks/endpoints", { url: PUBLIC_URL, events: ["subscription.paused"] });
  const ids: string[] = [];
  for (const age of [31, 29]) ids.push((await backdatedDelivery(shopId, age, { status: "failed" })).id);
  const [old, recent] = ids;
  // Both rows are stored (a month is dropped only once all of it is past 30 days: docs/decisions/169).
  expect(await prisma.webhookDelivery.count({ where: { id: { in: ids } } })).toBe(2);

  const list = await api<{ data: Array<{ id: string }> }>("GET", `/webhooks/deliveries?endpoint_id=${endpoint.json.id}`);
  expect(list.json.data.map((d) => d.id)).toEqual([recent]);
  expect((await api("GET", `/webhooks/deliveries/${old}`)).status).toBe(404);
  expect((await api("GET", `/webhooks/deliveries/${recent}`)).status).toBe(200);
  expect((await api("POST", `/webhooks/deliveries/${old}/resend`)).status).toBe(404);
  const since = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const recovered = await api<{ queued: number; delivery_ids: string[] }>("POST", `/webhooks/endpoints/${endpoint.json.id}/recover`, { since });
  expect(recovered.json.delivery_ids).toEqual([recent]);
});
