// The attempt log of a page of deliveries: the deliveries (scoped by the shop, and their events'
// test flag) in one query, their attempts in one more (attemptsOf in deliveries.server.ts, which
// getDelivery() uses for one delivery). An id of another shop's delivery yields nothing.
// docs/decisions/052-webhook-delivery.md (Log), 075-webhooks-page.md, 170-per-month-foreign-keys.md.
import { prisma } from "../../db.server";
import { attemptsOf, inDeliveryLog, type AttemptView } from "./deliveries.server";

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
    select: { id: true, createdAt: true, eventRecord: { select: { test: true } } },
  });
  const attempts = await attemptsOf(rows);
  for (const r of rows) out.set(r.id, { test: r.eventRecord.test, attempts: attempts(r) });
  return out;
}
