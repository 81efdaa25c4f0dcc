// The merchant's view of the mail log (the Notifications page): each message's lifecycle with its
// timestamps, the SMTP reply and the bounce or skip reason, filterable by customer, message kind
// and status. Tenancy: the shop's rows only. The recipient address is not part of this view either
// (the customer id is); an SMTP reply may quote it, and the merchant may read that.
import { prisma } from "../../db.server";
import { iso } from "../shared/money.server";

export interface MailLogFilters {
  customerId?: string;
  kind?: string;
  status?: string;
}

export interface MailLogRow {
  id: string;
  event: string;
  status: string;
  title: string;
  customer_id: string;
  contract_id: string | null;
  attempts: number;
  created_at: string;
  send_after: string;
  sent_at: string | null;
  delivered_at: string | null;
  bounced_at: string | null;
  smtp_response: string | null;
  reason: string | null;
}

export async function mailLog(shopId: string, f: MailLogFilters, limit = 100): Promise<MailLogRow[]> {
  const rows = await prisma.notificationLogEntry.findMany({
    where: {
      shopId,
      ...(f.customerId ? { customerGid: { contains: f.customerId } } : {}),
      ...(f.kind ? { event: f.kind } : {}),
      ...(f.status ? { status: f.status } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    status: r.status,
    title: r.title,
    customer_id: r.customerGid,
    contract_id: r.contractGid,
    attempts: r.attempts,
    created_at: r.createdAt.toISOString(),
    send_after: r.sendAfter.toISOString(),
    sent_at: iso(r.sentAt),
    delivered_at: iso(r.deliveredAt),
    bounced_at: iso(r.bouncedAt),
    smtp_response: r.smtpResponse,
    reason: r.reason,
  }));
}
