// Notification log reads (/docs#tag/Admin-API:-Notifications; event, status, customer_id; no name or e-mail address, ever:
// the row's recipient and its reason (an SMTP reply may quote the address) are never selected here).
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

/** The lifecycle (docs/decisions/101-102, 133); deferred, skipped and held were added after the first five. */
export const NOTIFICATION_STATUSES = ["queued", "sent", "delivered", "bounced", "failed", "deferred", "skipped", "held"] as const;

export interface NotificationFilters {
  event?: string;
  status?: (typeof NOTIFICATION_STATUSES)[number];
  customerId?: string;
}

const LOG_FIELDS = {
  id: true,
  event: true,
  category: true,
  status: true,
  customerGid: true,
  contractGid: true,
  title: true,
  deliveredAt: true,
  sentAt: true,
  bouncedAt: true,
  createdAt: true,
} as const;

/** A log entry as the APIs may show it: never the recipient's address nor the SMTP reply. */
export type NotificationView = Prisma.NotificationLogEntryGetPayload<{ select: typeof LOG_FIELDS }>;

export async function listNotifications(ctx: { shopId: string; filters: NotificationFilters; page: PageRequest }): Promise<PageResult<NotificationView>> {
  const f = ctx.filters;
  const rows = await prisma.notificationLogEntry.findMany({
    where: {
      shopId: ctx.shopId,
      ...(f.event ? { event: f.event } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.customerId ? { customerGid: f.customerId } : {}),
      ...afterWhere(ctx.page.after),
    },
    orderBy: KEYSET_ORDER,
    take: ctx.page.limit + 1,
    select: LOG_FIELDS,
  });
  return toPage(rows, ctx.page.limit, (n) => n);
}
