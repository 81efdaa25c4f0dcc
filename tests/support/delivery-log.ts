// Deliveries read with their attempt logs, as the tests inspect them. An attempt names its
// delivery by (delivery_id, delivery_created_at); the foreign key is declared per month partition
// in SQL and Prisma knows no relation to include (docs/decisions/170-per-month-foreign-keys.md),
// so the attempts are read in one query and matched to their delivery by both columns.
import type { Prisma, WebhookAttempt, WebhookDelivery } from "@prisma/client";
import { prisma } from "../../app/db.server";

export type DeliveryWithLog = WebhookDelivery & { attemptLog: WebhookAttempt[] };

export async function withAttemptLog(deliveries: WebhookDelivery[]): Promise<DeliveryWithLog[]> {
  const attempts = deliveries.length
    ? await prisma.webhookAttempt.findMany({ where: { deliveryId: { in: deliveries.map((d) => d.id) } }, orderBy: { number: "asc" } })
    : [];
  return deliveries.map((d) => ({
    ...d,
    attemptLog: attempts.filter((a) => a.deliveryId === d.id && a.deliveryCreatedAt.getTime() === d.createdAt.getTime()),
  }));
}

/** The first delivery matching `where`, with its attempts in order; null when there is none. */
export async function deliveryWithLog(where: Prisma.WebhookDeliveryWhereInput): Promise<DeliveryWithLog | null> {
  const d = await prisma.webhookDelivery.findFirst({ where });
  return d ? (await withAttemptLog([d]))[0] : null;
}
