// The attempt log of a page of deliveries in one query (the Webhooks page shows each attempt's
// outcome under its delivery; getDelivery() in deliveries.server.ts is the one-delivery form).
// Scoped by the shop through the delivery row: an id of another shop's delivery yields nothing.
// docs/decisions/052-webhook-delivery.md (Log), 075-webhooks-page.md.
import { prisma } from "../../db.server";
import { inDeliveryLog, type AttemptView } from "./deliveries.server";

export interface DeliveryLogDetail {
  /** The event is a test event (sendTestEvent), not a change in the shop. */
  test: boolean;
  attempts: AttemptView[];
}

export async function attemptLogs(shopId: string, deliveryIds: readonly string[]): Promise<Map<string, DeliveryLogDetail>> {
  const out = new Map<string, DeliveryLogDetail>();
  if (!deliveryIds.length) return out;
  const rows = await prisma.webhookDelivery.findMany({
    where: { shopId, id: { in: [...deliveryIds] }, ...inDeliveryLog() },
    select: {
      id: true,
      eventRecord: { select: { test: true } },
      attemptLog: {
        orderBy: { number: "asc" },
        select: { number: true, manual: true, startedAt: true, finishedAt: true, responseCode: true, error: true, outcome: true },
      },
    },
  });
  for (const r of rows) out.set(r.id, { test: r.eventRecord.test, attempts: r.attemptLog });
  return out;
}
