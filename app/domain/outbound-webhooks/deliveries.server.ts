// The delivery log of a shop and the merchant's manual sends: a test event to one endpoint,
// resend one delivery, recover (resend every failed or exhausted delivery of an endpoint since a
// time). A manual delivery makes one attempt, marked manual in the log, with no ladder
// (docs/decisions/054-webhook-management.md). Callable from the Admin API and the Webhooks page.
import { randomUUID } from "node:crypto";
import type { DeliveryStatus, WebhookDelivery } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { QUEUES, queue } from "../../infra/queues.server";
import { afterWhere, KEYSET_ORDER, toPage, type PageRequest, type PageResult } from "../shared/paging.server";
import { planAllowsApi } from "../shop/shops.server";
import { EVENT_CATALOGUE, type EventType } from "./catalogue";
import { attemptJobId, enqueueAttempts, enqueueFirstAttempts } from "./jobs.server";
import { eventIdFor } from "./publish.server";
import { DELIVERY_RETENTION_DAYS } from "../housekeeping/delivery-partitions.server";

/**
 * The log shows the last 30 days ("Delivery log retention: 30 days"). Retention drops a month
 * only once all of it is past 30 days (docs/decisions/169-delivery-partitions.md), so rows up to
 * about 61 days old are still stored: every read of the log, and every manual send from it, stops
 * at this window, so the log a merchant or the API sees is the 30 days the contract promises.
 */
export const inDeliveryLog = (now = new Date()) => ({ createdAt: { gte: new Date(now.getTime() - DELIVERY_RETENTION_DAYS * 86_400_000) } });

export interface DeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
  nextAttemptAt: Date | null;
  manual: boolean;
}

export interface AttemptView {
  number: number;
  manual: boolean;
  startedAt: Date;
  finishedAt: Date;
  responseCode: number | null;
  error: string | null;
  outcome: DeliveryStatus;
}

const ATTEMPT_FIELDS = { number: true, manual: true, startedAt: true, finishedAt: true, responseCode: true, error: true, outcome: true } as const;
const deliveryKey = (id: string, createdAt: Date) => `${id}@${createdAt.getTime()}`;

/**
 * The attempt logs of some deliveries (a page, or one), in one query, each log in order. An
 * attempt names its delivery by (delivery_id, delivery_created_at); the foreign key is declared
 * per month partition in SQL, so Prisma knows no relation to include
 * (docs/decisions/170-per-month-foreign-keys.md). Filtering on delivery_created_at too lets
 * PostgreSQL read only those deliveries' months.
 */
export async function attemptsOf(deliveries: readonly { id: string; createdAt: Date }[]): Promise<(d: { id: string; createdAt: Date }) => AttemptView[]> {
  const byDelivery = new Map<string, AttemptView[]>();
  if (deliveries.length) {
    const rows = await prisma.webhookAttempt.findMany({
      where: {
        deliveryId: { in: [...new Set(deliveries.map((d) => d.id))] },
        deliveryCreatedAt: { in: [...new Map(deliveries.map((d) => [d.createdAt.getTime(), d.createdAt])).values()] },
      },
      orderBy: [{ deliveryId: "asc" }, { number: "asc" }],
      select: { deliveryId: true, deliveryCreatedAt: true, ...ATTEMPT_FIELDS },
    });
    for (const { deliveryId, deliveryCreatedAt, ...a } of rows) {
      const key = deliveryKey(deliveryId, deliveryCreatedAt);
      const log = byDelivery.get(key);
      if (log) log.push(a);
      else byDelivery.set(key, [a]);
    }
  }
  return (d) => byDelivery.get(deliveryKey(d.id, d.createdAt)) ?? [];
}

const view = (d: WebhookDelivery): DeliveryView => ({
  id: d.id,
  endpointId: d.endpointId,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  responseCode: d.responseCode,
  lastError: d.lastError,
  deliveredAt: d.deliveredAt,
  createdAt: d.createdAt,
  nextAttemptAt: d.nextAttemptAt,
  manual: d.manual,
});

export interface DeliveryFilters {
  endpointId?: string;
  status?: DeliveryStatus;
  event?: string;
}

export async function listDeliveries(input: { shopId: string; filters: DeliveryFilters; page: PageRequest }): Promise<PageResult<DeliveryView>> {
  const rows = await prisma.webhookDelivery.findMany({
    where: {
      shopId: input.shopId,
      ...(input.filters.endpointId ? { endpointId: input.filters.endpointId } : {}),
      ...(input.filters.status ? { status: input.filters.status } : {}),
      ...(input.filters.event ? { event: input.filters.event } : {}),
      ...afterWhere(input.page.after),
      AND: [inDeliveryLog()],
    },
    orderBy: KEYSET_ORDER,
    take: input.page.limit + 1,
  });
  return toPage(rows, input.page.limit, view);
}

export async function getDelivery(shopId: string, id: string): Promise<DeliveryView & { attemptLog: AttemptView[] }> {
  const row = await prisma.webhookDelivery.findFirst({ where: { id, shopId, ...inDeliveryLog() } });
  if (!row) throw new ApiError("not_found", "No such webhook delivery on this shop");
  return { ...view(row), attemptLog: (await attemptsOf([row]))(row) };
}

async function assertEntitled(shopId: string): Promise<void> {
  const shop = await prisma.shop.findUnique({ where: { id: shopId }, select: { appPlan: true, partnerDevelopment: true, platformPlanPaid: true } });
  if (!shop || !planAllowsApi(shop)) throw new ApiError("plan_upgrade_required", "Outbound webhooks need the Pro plan");
}

/** A test event (body `"test": true`, the catalogue's example data) to one endpoint, enabled or not. */
export async function sendTestEvent(input: { shopId: string; endpointId: string; type?: EventType }): Promise<DeliveryView> {
  await assertEntitled(input.shopId);
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id: input.endpointId, shopId: input.shopId }, select: { id: true, events: true } });
  if (!endpoint) throw new ApiError("not_found", "No such webhook endpoint on this shop");
  const type = input.type ?? (endpoint.events[0] as EventType | undefined) ?? "subscription.created";
  const sourceKey = `test:${randomUUID()}`;
  const eventId = eventIdFor(sourceKey);
  const now = new Date();
  // The delivery's created_at is its event's (its month partition; docs/decisions/169-delivery-partitions.md).
  const delivery = await prisma.$transaction(async (tx) => {
    await tx.event.create({ data: { id: eventId, shopId: input.shopId, type, data: EVENT_CATALOGUE[type].example, sourceKey, test: true, createdAt: now } });
    return tx.webhookDelivery.create({
      data: { shopId: input.shopId, endpointId: endpoint.id, eventId, event: type, status: "pending", nextAttemptAt: now, manual: true, createdAt: now },
    });
  });
  await enqueueFirstAttempts([{ eventId, deliveryIds: [delivery.id] }]).catch(() => undefined); // the sweeper has it otherwise
  return view(delivery);
}

/** Marks deliveries for one manual attempt each and queues it (a waiting retry is brought forward). */
async function requeueManual(rows: Array<Pick<WebhookDelivery, "id" | "attempts" | "status">>): Promise<void> {
  if (!rows.length) return;
  const now = new Date();
  await prisma.webhookDelivery.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { status: "pending", manual: true, nextAttemptAt: now } });
  const q = queue(QUEUES.webhooks);
  for (const r of rows) {
    if (r.status !== "failed") continue;
    // A failed delivery has its next attempt waiting as a delayed job: run it now instead.
    const waiting = await q.getJob(attemptJobId(r.id, r.attempts + 1)).catch(() => undefined);
    if (waiting && (await waiting.isDelayed())) await waiting.promote().catch(() => undefined);
  }
  await enqueueAttempts(rows.map((r) => ({ deliveryId: r.id, attempt: r.attempts + 1 }))).catch(() => undefined);
}

export async function resendDelivery(input: { shopId: string; deliveryId: string }): Promise<DeliveryView> {
  await assertEntitled(input.shopId);
  const row = await prisma.webhookDelivery.findFirst({ where: { id: input.deliveryId, shopId: input.shopId, ...inDeliveryLog() } });
  if (!row) throw new ApiError("not_found", "No such webhook delivery on this shop");
  if (row.status === "pending") return view(row); // its attempt is on its way already
  await requeueManual([row]);
  return view(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id_createdAt: { id: row.id, createdAt: row.createdAt } } }));
}

export const RECOVER_MAX = 1000;

/** Every failed or exhausted delivery of the endpoint created at or after `since` (at most RECOVER_MAX, oldest first). */
export async function recoverDeliveries(input: { shopId: string; endpointId: string; since: Date }): Promise<{ queued: number; deliveryIds: string[] }> {
  await assertEntitled(input.shopId);
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id: input.endpointId, shopId: input.shopId }, select: { id: true } });
  if (!endpoint) throw new ApiError("not_found", "No such webhook endpoint on this shop");
  const rows = await prisma.webhookDelivery.findMany({
    where: { endpointId: endpoint.id, status: { in: ["failed", "exhausted"] }, AND: [{ createdAt: { gte: input.since } }, inDeliveryLog()] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: RECOVER_MAX,
    select: { id: true, attempts: true, status: true },
  });
  await requeueManual(rows);
  return { queued: rows.length, deliveryIds: rows.map((r) => r.id) };
}
