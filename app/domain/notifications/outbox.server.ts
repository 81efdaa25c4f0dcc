// The mail outbox (docs/decisions/101-mail-outbox.md). A message is a notification_log row written
// in the transaction of the change that causes it, under a unique idempotency key
// (shop, "<kind>:<contract>:<cycle>"), so the same cause queued twice is one row. After the
// transaction commits the caller hands the new ids to `dispatchMail`, which adds one `mail` job
// per row; the sweeper (sweep.server.ts) re-adds the jobs Redis lost. Rows, not jobs, are the truth.
import { randomBytes } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { enqueue, enqueueBulk, QUEUES } from "../../infra/queues.server";
import { messageKind, type MessageKindName } from "./catalogue";
import { afterQuietHours, mailSettings } from "./settings.server";

type Db = Prisma.TransactionClient | typeof prisma;

export interface QueueMail {
  shopId: string;
  kind: MessageKindName;
  customerGid: string;
  contractGid: string | null;
  /** What makes this message unique beside its kind and contract: the cycle, the date generation. */
  cycle: string;
  /** The template variables (strings only: they cross into Liquid). */
  vars: Record<string, string>;
  /** When it is due (default now); moved to the end of the shop's quiet hours when inside them. */
  dueAt?: Date;
  /** Known already (tests, the bench); otherwise the worker reads it from the platform. */
  recipient?: string;
}

export const idempotencyKeyOf = (m: Pick<QueueMail, "kind" | "contractGid" | "cycle" | "customerGid">) =>
  `${m.kind}:${m.contractGid ?? m.customerGid}:${m.cycle}`;
export const newRowId = () => `n${randomBytes(12).toString("hex")}`;

export interface Queued {
  id: string;
  sendAfter: Date;
}

/** Writes the message's row in `db` (the cause's transaction); null when the key was queued before. */
export async function queueMail(db: Db, m: QueueMail): Promise<Queued | null> {
  const kind = messageKind(m.kind);
  if (!kind) throw new Error(`unknown message kind ${m.kind}`);
  const settings = await mailSettingsIn(db, m.shopId);
  const sendAfter = afterQuietHours(m.dueAt ?? new Date(), settings);
  const id = newRowId();
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO notification_log (id, shop_id, customer_gid, contract_gid, event, category, status, title, idempotency_key, payload, send_after, recipient, updated_at)
    VALUES (${id}, ${m.shopId}, ${m.customerGid}, ${m.contractGid}, ${m.kind}, ${kind.category}, 'queued', ${kind.label},
            ${idempotencyKeyOf(m)}, ${JSON.stringify(m.vars)}::jsonb, ${sendAfter}, ${m.recipient ?? null}, now())
    ON CONFLICT (shop_id, idempotency_key) DO NOTHING
    RETURNING id`;
  return rows.length ? { id: rows[0].id, sendAfter } : null;
}

async function mailSettingsIn(db: Db, shopId: string) {
  if (db === prisma) return mailSettings(shopId);
  const row = await db.notificationSettings.findUnique({ where: { shopId }, select: { timezone: true, quietStart: true, quietEnd: true } });
  return row ?? { timezone: "UTC", quietStart: null, quietEnd: null };
}

export const mailJobId = (rowId: string, attempt: number) => `mail-${rowId}-${attempt}`;

/** Adds the `mail` jobs of freshly queued rows (after their transaction committed). */
export async function dispatchMail(queued: readonly (Queued | null)[], now = Date.now()): Promise<void> {
  const rows = queued.filter((q): q is Queued => q !== null);
  if (!rows.length) return;
  await enqueueBulk(
    QUEUES.mail,
    rows.map((q) => ({ name: "send" as const, data: { rowId: q.id }, opts: { jobId: mailJobId(q.id, 0), delay: Math.max(0, q.sendAfter.getTime() - now) } })),
  );
}

/** Queues and dispatches one message outside any other transaction (confirmations after a platform write). */
export async function queueAndDispatch(m: QueueMail): Promise<Queued | null> {
  const q = await queueMail(prisma, m);
  await dispatchMail([q]);
  return q;
}

/**
 * The merchant's "Resend" of a `held` message (docs/decisions/133-mail-in-doubt.md): it may have
 * reached the customer already, so only a person decides to send it again. False when the row is
 * not the shop's or not held (a second click, another tab).
 */
export async function resendHeld(shopId: string, rowId: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ attempts: number }[]>`
    UPDATE notification_log SET status = 'queued', lease_until = NULL, reason = NULL, send_after = now(), updated_at = now()
    WHERE id = ${rowId} AND shop_id = ${shopId} AND status = 'held'
    RETURNING attempts`;
  if (!rows.length) return false;
  await enqueue(QUEUES.mail, "send", { rowId }, { jobId: `${mailJobId(rowId, rows[0].attempts)}-resend` });
  return true;
}
