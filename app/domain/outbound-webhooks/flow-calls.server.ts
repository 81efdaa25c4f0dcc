// Firing a Flow trigger: the worker's "flow-trigger" job (docs/decisions/128-flow-triggers.md).
//
// The call row (flow_trigger_calls) was written with its event, in the same statement, for a shop
// with Flow enabled; this sends flowTriggerReceive with the payload the trigger's declared fields
// describe (flow-triggers.ts) and records the outcome on the row:
//   - accepted: sent;
//   - userErrors: refused (the same call would be refused again; the messages are kept);
//   - the shop gone (no token): failed at once;
//   - anything else (Shopify unreachable, throttled): the attempt is counted and the job throws, so
//     BullMQ retries it; when BullMQ gives up the sweeper re-adds it once `next_attempt_at` passes,
//     until FLOW_MAX_ATTEMPTS attempts have failed.
// A call is made at least once: a worker that dies after Shopify accepted and before the row was
// updated sends it again, and the payload's "Event ID" lets a workflow tell the copies apart.
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import type { FlowTriggerPayload } from "../../infra/job-payloads";
import { isPlatformError, platformFor } from "../../platform/index.server";
import { isEventType } from "./catalogue";
import { flowPayload } from "./flow-triggers";

export const FLOW_MAX_ATTEMPTS = 10;
/** After a failed attempt, when the sweeper may hand the call back (BullMQ's own retries come sooner). */
export const FLOW_RETRY_AFTER_MS = 10 * 60_000;

export type FlowCallOutcome = "sent" | "refused" | "failed" | "retry" | "skipped";

export async function fireFlowTrigger({ eventId }: FlowTriggerPayload, now: () => Date = () => new Date()): Promise<FlowCallOutcome> {
  const call = await prisma.flowTriggerCall.findUnique({
    where: { eventId },
    select: { id: true, status: true, attempts: true, handle: true, shop: { select: { domain: true } }, event: { select: { type: true, data: true } } },
  });
  if (!call || call.status !== "pending" || !isEventType(call.event.type)) return "skipped";
  const settle = (data: { status: "sent" | "refused" | "failed" | "pending"; lastError?: string | null; nextAttemptAt?: Date | null; sentAt?: Date }) =>
    prisma.flowTriggerCall.updateMany({ where: { id: call.id, status: "pending" }, data: { ...data, attempts: { increment: 1 } } });

  try {
    // Announcements share the reminders' tier of the shop's budget (docs/decisions/096-shop-budget.md).
    const port = await platformFor(call.shop.domain, "reminders");
    await port.flowTriggerReceive(call.handle, flowPayload(call.event.type, eventId, call.event.data as Record<string, unknown>));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (isPlatformError(err) && (err.kind === "invalid_request" || err.kind === "state_conflict")) {
      log.warn("Flow refused a trigger call", { eventId, handle: call.handle, error: message });
      await settle({ status: "refused", lastError: `Flow refused the call: ${message}`, nextAttemptAt: null });
      return "refused";
    }
    if ((isPlatformError(err) && err.kind === "shop_unavailable") || call.attempts + 1 >= FLOW_MAX_ATTEMPTS) {
      await settle({ status: "failed", lastError: message, nextAttemptAt: null });
      return "failed";
    }
    await settle({ status: "pending", lastError: message, nextAttemptAt: new Date(now().getTime() + FLOW_RETRY_AFTER_MS) });
    throw err;
  }
  await settle({ status: "sent", lastError: null, nextAttemptAt: null, sentAt: now() });
  return "sent";
}
