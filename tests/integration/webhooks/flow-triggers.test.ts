// Shopify Flow triggers through real processes (docs/decisions/128-flow-triggers.md): an event
// published for a shop with Flow enabled leaves one flow_trigger_calls row in its own statement,
// a worker process sends flowTriggerReceive, and the simulator (which read the committed
// extensions/flow-*/shopify.extension.toml as Shopify reads the deployed app's) accepts the
// payload against the trigger's declared fields and records the call.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from "../../../app/domain/outbound-webhooks/catalogue";
import { setFlowEnabled } from "../../../app/domain/outbound-webhooks/flow-settings.server";
import { publishEventNow } from "../../../app/domain/outbound-webhooks/publish.server";
import { QUEUES, queue, queueConnection } from "../../../app/infra/queues.server";
import { platformFor, PlatformError } from "../../../app/platform/index.server";
import type { FlowTriggerCallRecord } from "../../../simulator/state";
import type { WorkerProcess } from "../../support/processes";
import { deleteRedisPrefix } from "../../support/redis-keys";
import { eventually, startStack, type Stack } from "../../support/stack";
import { startDeliveryWorker } from "../../support/webhook-receivers";

let stack: Stack;
const children: WorkerProcess[] = [];
beforeAll(async () => {
  stack = await startStack({ workers: false });
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await stack?.close();
});

async function worker(extra: Record<string, string> = {}) {
  const child = await startDeliveryWorker(null, extra);
  children.push(child);
  return child;
}

const flowCalls = (domain: string) => stack.control.call<FlowTriggerCallRecord[]>("GET", `${stack.control.shop(domain)}/flow-trigger-calls`);
const publish = (shopId: string, type: EventType, sourceKey = `flow:${randomUUID()}`) =>
  publishEventNow({ shopId, type, sourceKey, data: EVENT_CATALOGUE[type].example });

it("publishing each event type for a Flow-enabled shop makes exactly one flowTriggerReceive call, its payload valid for the trigger", async () => {
  const { domain, shopId } = await stack.installShop();
  await setFlowEnabled(shopId, true);
  await worker();

  const published = new Map<string, EventType>();
  for (const type of EVENT_TYPES) {
    const p = await publish(shopId, type, `flow-each:${type}`);
    expect(p.flowCall).toBe(true);
    published.set(p.eventId, type);
  }
  // The same source published again is the same event: no second call.
  expect((await publish(shopId, "subscription.paused", "flow-each:subscription.paused")).flowCall).toBe(false);

  await eventually(async () => (await prisma.flowTriggerCall.count({ where: { shopId, status: { not: "sent" } } })) === 0 && true, 60_000);
  const calls = await flowCalls(domain);
  expect(calls).toHaveLength(EVENT_TYPES.length);
  expect(calls.filter((c) => !c.accepted)).toEqual([]);
  const byEvent = new Map(calls.map((c) => [(c.payload as Record<string, string>)["Event ID"], c]));
  expect(new Set(byEvent.keys())).toEqual(new Set(published.keys()));
  for (const [eventId, type] of published) {
    const call = byEvent.get(eventId)!;
    expect(call.handle).toBe((await prisma.flowTriggerCall.findUniqueOrThrow({ where: { eventId } })).handle);
    const example = EVENT_CATALOGUE[type].example as Record<string, unknown>;
    if (typeof example.customer_id === "string") expect((call.payload as Record<string, unknown>).customer_id).toBe(501);
  }
  // Each handle once: one trigger per event type.
  expect(new Set(calls.map((c) => c.handle)).size).toBe(EVENT_TYPES.length);
  const rows = await prisma.flowTriggerCall.findMany({ where: { shopId } });
  expect(rows.every((r) => r.attempts === 1 && r.sentAt !== null && r.lastError === null)).toBe(true);
  await children.pop()!.stop();
}, 120_000);

it("a shop with Flow disabled gets no call, while the shop beside it with Flow enabled does", async () => {
  const off = await stack.installShop();
  const on = await stack.installShop();
  await setFlowEnabled(on.shopId, true);
  await setFlowEnabled(on.shopId, true); // saying it twice changes nothing
  await worker();

  for (const type of EVENT_TYPES) expect((await publish(off.shopId, type)).flowCall).toBe(false);
  const enabled = await publish(on.shopId, "subscription.cancelled");
  expect(enabled.flowCall).toBe(true);
  await eventually(async () => (await flowCalls(on.domain)).length === 1, 30_000);
  // The events of the disabled shop were published before it and queued nothing for Flow.
  expect(await flowCalls(off.domain)).toEqual([]);
  expect(await prisma.flowTriggerCall.count({ where: { shopId: off.shopId } })).toBe(0);
  expect(await prisma.event.count({ where: { shopId: off.shopId } })).toBe(EVENT_TYPES.length);

  // Turned off again: the next event fires nothing; the switch is in the audit trail both ways.
  await setFlowEnabled(on.shopId, false);
  expect((await publish(on.shopId, "subscription.paused")).flowCall).toBe(false);
  const audit = await prisma.auditEvent.findMany({ where: { shopId: on.shopId, action: "settings.flow" }, orderBy: { createdAt: "asc" } });
  expect(audit.map((a) => a.changes)).toEqual([{ flowEnabled: { before: false, after: true } }, {}, { flowEnabled: { before: true, after: false } }]);
  await children.pop()!.stop();
}, 90_000);

it("Redis flushed with trigger calls waiting loses none: after the sweeper runs, each event's call arrives once", async () => {
  const { domain, shopId } = await stack.installShop();
  await setFlowEnabled(shopId, true);
  const events = [];
  for (const type of ["subscription.paused", "subscription.cancelled", "subscription.renewed", "gift.sent", "customer.payment_method_updated"] as const) {
    events.push(await publish(shopId, type));
  }
  // Queued, nobody working them.
  const mine = new Set(events.map((e) => `flow-${e.eventId}`));
  const waiting = async () => (await queue(QUEUES.webhooks).getJobs(["waiting", "delayed"])).filter((j) => mine.has(j.id ?? ""));
  expect((await waiting()).length).toBe(events.length);

  // Redis loses everything under this run's prefix (never FLUSHDB: tests/support/redis-keys.ts).
  expect(await deleteRedisPrefix(queueConnection(), env().REDIS_PREFIX)).toBeGreaterThan(0);
  expect(await waiting()).toEqual([]);

  // A worker starts; only the sweeper (every second here, no grace) knows what was owed.
  await worker({ WEBHOOK_SWEEP_CRON: "* * * * * *", WEBHOOK_SWEEP_GRACE_MS: "0" });
  await eventually(async () => (await prisma.flowTriggerCall.count({ where: { shopId, status: "sent" } })) === events.length, 60_000);
  const calls = await flowCalls(domain);
  expect(calls.map((c) => (c.payload as Record<string, string>)["Event ID"]).sort()).toEqual(events.map((e) => e.eventId).sort());
  expect(calls.every((c) => c.accepted)).toBe(true);
  await children.pop()!.stop();
}, 120_000);

it("Flow's refusal comes back as userErrors: the port throws invalid_request, the simulator records the refused call", async () => {
  const { domain } = await stack.installShop();
  const port = await platformFor(domain);
  const err = await port.flowTriggerReceive("subscription-paused", { "Event ID": "evt_x", Colour: "blue" }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PlatformError);
  expect((err as PlatformError).kind).toBe("invalid_request");
  expect((err as PlatformError).field).toEqual(["payload", "customer_id"]);
  const unknown = await port.flowTriggerReceive("no-such-trigger", {}).catch((e: unknown) => e);
  expect((unknown as PlatformError).message).toBe('No Flow trigger with handle "no-such-trigger" is deployed for this app');
  const calls = await flowCalls(domain);
  expect(calls.map((c) => [c.handle, c.accepted, c.userErrors.length])).toEqual([
    ["subscription-paused", false, 2],
    ["no-such-trigger", false, 1],
  ]);
});
