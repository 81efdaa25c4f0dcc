// The outbound event log. An event is recorded once per source (e.g. one inbound Shopify
// webhook id); its id is derived from that source, so a replayed source yields the same id.
import { createHash } from "node:crypto";
import type { Prisma } from "@prisma/client";

export type EventType =
  | "subscription.created"
  | "subscription.paused"
  | "subscription.cancelled"
  | "subscription.reactivated";

export function eventIdFor(sourceKey: string): string {
  return "evt_" + createHash("sha256").update(sourceKey).digest("base64url").slice(0, 24);
}

/** Records the event unless its source was already recorded. Returns the event id. */
export async function recordEvent(
  tx: Prisma.TransactionClient,
  input: { shopId: string; type: EventType; data: Prisma.InputJsonValue; sourceKey: string; occurredAt?: Date },
): Promise<string> {
  const id = eventIdFor(input.sourceKey);
  await tx.event.upsert({
    where: { sourceKey: input.sourceKey },
    create: { id, shopId: input.shopId, type: input.type, data: input.data, sourceKey: input.sourceKey, createdAt: input.occurredAt },
    update: {},
  });
  return id;
}
