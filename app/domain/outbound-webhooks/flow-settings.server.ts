// The shop's Flow setting and what the Flow page shows (docs/decisions/128-flow-triggers.md). Off
// by default: a merchant turns it on, and from the next published event each event also fires its
// Flow trigger. The switch is audited like every setting (settings.flow).
import { prisma } from "../../db.server";
import { audited, diffFields } from "../audit/audit.server";

export async function setFlowEnabled(shopId: string, enabled: boolean): Promise<void> {
  await audited({ shopId, action: "settings.flow", target: { type: "settings", id: "flow" } }, async (tx) => {
    const before = await tx.shop.findUniqueOrThrow({ where: { id: shopId }, select: { flowEnabled: true } });
    await tx.shop.update({ where: { id: shopId }, data: { flowEnabled: enabled } });
    return { result: undefined, changes: diffFields(before, { flowEnabled: enabled }, ["flowEnabled"]) };
  });
}

export interface FlowCallRow {
  id: string;
  eventId: string;
  event: string;
  handle: string;
  status: "pending" | "sent" | "refused" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The shop's setting and its latest trigger calls, newest first. */
export async function flowOverview(shopId: string, limit = 25): Promise<{ enabled: boolean; calls: FlowCallRow[] }> {
  const [shop, calls] = await Promise.all([
    prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { flowEnabled: true } }),
    prisma.flowTriggerCall.findMany({
      where: { shopId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: {
        id: true,
        eventId: true,
        handle: true,
        status: true,
        attempts: true,
        lastError: true,
        createdAt: true,
        sentAt: true,
        event: { select: { type: true } },
      },
    }),
  ]);
  return {
    enabled: shop.flowEnabled,
    calls: calls.map((c) => ({
      id: c.id,
      eventId: c.eventId,
      event: c.event.type,
      handle: c.handle,
      status: c.status,
      attempts: c.attempts,
      lastError: c.lastError,
      createdAt: c.createdAt.toISOString(),
      sentAt: c.sentAt?.toISOString() ?? null,
    })),
  };
}
