// Notification log reads (/docs#tag/Admin-API:-Notifications; event, status, customer_id; no name or e-mail address, ever:
// the table holds none, and nothing here joins to anything that does).
import { prisma } from "../../db.server";
import { iso } from "../shared/money.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

export const NOTIFICATION_STATUSES = ["queued", "sent", "delivered", "bounced", "failed"] as const;

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
    created_at: n.createdAt.toISOString(),
  }));
}
