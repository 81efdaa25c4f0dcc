// Notification log reads (/docs#tag/Admin-API:-Notifications; event, status, customer_id; no name or e-mail address, ever:
// the row's recipient and its reason (an SMTP reply may quote the address) are never selected here).
import { prisma } from "../../db.server";
import { iso } from "../shared/money.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

/** The lifecycle (docs/decisions/101-102); deferred and skipped were added after the first five. */
export const NOTIFICATION_STATUSES = ["queued", "sent", "delivered", "bounced", "failed", "deferred", "skipped"] as const;

export interface NotificationFilters {
  event?: string;
  status?: (typeof NOTIFICATION_STATUSES)[number];
  customerId?: string;
}

export interface NotificationJson {
  id: string;
  event: string;
  category: string;
  status: string;
  customer_id: string;
  contract_id: string | null;
  title: string;
  delivered_at: string | null;
  sent_at: string | null;
  bounced_at: string | null;
  created_at: string;
}

export async function listNotifications(ctx: { shopId: string; filters: NotificationFilters; page: PageRequest }): Promise<PageResult<NotificationJson>> {
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
    select: {
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
    },
  });
  return toPage(rows, ctx.page.limit, (n) => ({
    id: n.id,
    event: n.event,
    category: n.category,
    status: n.status,
    customer_id: n.customerGid,
    contract_id: n.contractGid,
    title: n.title,
    delivered_at: iso(n.deliveredAt),
    sent_at: iso(n.sentAt),
    bounced_at: iso(n.bouncedAt),
    created_at: n.createdAt.toISOString(),
  }));
}
