// publishEvent: the ONE way an outbound event comes to exist (docs/decisions/050-webhook-events.md).
// Call it inside the transaction of the change that causes the event; it writes the event and one
// delivery row per subscribed, enabled endpoint in that same transaction (the outbox), so the
// change and its announcement commit together or not at all. After the commit, hand the returned
// deliveryIds to dispatchDeliveries() (or use publishEventNow, which does both); if that never
// happens (a crash, Redis away) the sweeper queues them.
//
// The event id is derived from `sourceKey` (what caused it: "shopify-webhook:<X-Shopify-Webhook-Id>",
// "billing-attempt:<gid>:renewed", ...), so publishing the same source twice yields the same id
// and no second event. `data` is parsed by the event's strict allowlist (catalogue.ts).
//
// Below Pro (or uninstalled) the event is recorded and nothing is queued: events stop at the next
// publish and resume on re-upgrade. Disabled endpoints are not queued for (never replayed).
// A shop with Flow enabled also gets the event's Flow trigger call written in the same statement
// (flow_trigger_calls, the same outbox; docs/decisions/128-flow-triggers.md).
import { createHash } from "node:crypto";
import { Prisma } from "@prisma/client";
import { hotQuery } from "../../infra/pg.server";
import { EVENT_CATALOGUE, type EventData, type EventType } from "./catalogue";
import { dispatchDeliveries } from "./jobs.server";
import { flowHandle } from "./flow-triggers";

type Tx = Prisma.TransactionClient;

export function eventIdFor(sourceKey: string): string {
  return "evt_" + createHash("sha256").update(sourceKey).digest("base64url").slice(0, 24);
}

export interface PublishInput<T extends EventType = EventType> {
  shopId: string;
  type: T;
  /** What caused the event; one source, one event. */
  sourceKey: string;
  data: EventData<T>;
  /** When it happened (the body's created_at); default now. */
  occurredAt?: Date;
}

export interface Published {
  eventId: string;
  /** false when the source was already published (nothing written). */
  created: boolean;
  /** Deliveries written; queue them after the commit with dispatchDeliveries(). */
  deliveryIds: string[];
  /** true when a Flow trigger call was written (the shop has Flow enabled); dispatchDeliveries queues it. */
  flowCall: boolean;
}

/**
 * The event, and its delivery rows when the shop is entitled, in ONE statement (one round trip
 * inside the caller's transaction, and atomic on its own for publishEventNow; docs/decisions/078):
 * the event is inserted unless its source was published already, and only a new event gets
 * deliveries, one per enabled endpoint subscribed to its type. The entitlement is planAllowsApi
 * (app/domain/shop/shops.server.ts) written in SQL: installed, on Pro, and not a partner development
 * store whose platform plan is unpaid. Delivery ids are random UUIDs (like the attempt log's).
 * A delivery's created_at is its event's: the month partition it lands in, and the third column of
 * the (event_id, endpoint_id, created_at) key ON CONFLICT checks, which is then still one delivery
 * per event and endpoint (docs/decisions/169-delivery-partitions.md).
 */
/** The contract an event's data names, stored beside it so a contract's history reads by index (decision 144). */
const contractOf = (data: Prisma.InputJsonValue): string | null => {
  const id = (data as Record<string, unknown>).contract_id;
  return typeof id === "string" ? id : null;
};

function publishSql(input: PublishInput, data: Prisma.InputJsonValue, eventId: string): Prisma.Sql {
  const now = new Date().toISOString();
  const occurred = (input.occurredAt ?? new Date()).toISOString();
  return Prisma.sql`
    WITH ev AS (
      INSERT INTO events (id, shop_id, type, data, source_key, created_at, contract_gid)
      VALUES (${eventId}, ${input.shopId}, ${input.type}, ${JSON.stringify(data)}::jsonb, ${input.sourceKey}, ${occurred}::timestamp(3), ${contractOf(data)})
      ON CONFLICT DO NOTHING
      RETURNING id, created_at
    ), entitled AS (
      SELECT 1 FROM shops s
       WHERE s.id = ${input.shopId} AND s.install_state = 'INSTALLED' AND s.app_plan = 'PRO'
         AND (NOT s.partner_development OR s.platform_plan_paid)
    ), dl AS (
      INSERT INTO webhook_deliveries (id, shop_id, endpoint_id, event_id, event, next_attempt_at, created_at)
      SELECT gen_random_uuid()::text, e.shop_id, e.id, ev.id, ${input.type}, ${now}::timestamp(3), ev.created_at
        FROM ev CROSS JOIN webhook_endpoints e
       WHERE e.shop_id = ${input.shopId} AND e.enabled AND ${input.type}::text = ANY(e.events) AND EXISTS (SELECT 1 FROM entitled)
      ON CONFLICT DO NOTHING
      RETURNING id
    ), fl AS (
      INSERT INTO flow_trigger_calls (id, shop_id, event_id, handle, next_attempt_at, created_at)
      SELECT gen_random_uuid()::text, s.id, ev.id, ${flowHandle(input.type)}, ${now}::timestamp(3), ${now}::timestamp(3)
        FROM ev JOIN shops s ON s.id = ${input.shopId} AND s.flow_enabled AND s.install_state = 'INSTALLED'
      ON CONFLICT DO NOTHING
      RETURNING id
    )
    SELECT (SELECT count(*) FROM ev)::int AS created, ARRAY(SELECT id FROM dl) AS "deliveryIds", (SELECT count(*) FROM fl)::int AS "flowCalls"`;
}

function prepare<T extends EventType>(input: PublishInput<T>) {
  const data = EVENT_CATALOGUE[input.type].data.parse(input.data) as Prisma.InputJsonValue;
  const eventId = eventIdFor(input.sourceKey);
  return { eventId, sql: publishSql(input, data, eventId) };
}

type PublishRow = { created: number; deliveryIds: string[]; flowCalls: number };
const published = (eventId: string, row: PublishRow | undefined): Published => ({
  eventId,
  created: (row?.created ?? 0) > 0,
  deliveryIds: row?.deliveryIds ?? [],
  flowCall: (row?.flowCalls ?? 0) > 0,
});

/** Inside the transaction of the change that causes the event (the outbox). */
export async function publishEvent<T extends EventType>(tx: Tx, input: PublishInput<T>): Promise<Published> {
  const { eventId, sql } = prepare(input);
  const rows = await tx.$queryRaw<PublishRow[]>(sql);
  return published(eventId, rows[0]);
}

/**
 * publishEvent on its own (the statement is its own transaction), then the deliveries queued.
 * It runs on the hot-path pool as a named prepared statement (docs/decisions/007).
 */
export async function publishEventNow<T extends EventType>(input: PublishInput<T>): Promise<Published> {
  const { eventId, sql } = prepare(input);
  const result = published(eventId, (await hotQuery<PublishRow>(sql, { name: "webhook-publish" }))[0]);
  await dispatchDeliveries([result]);
  return result;
}
