// The shop's suppression list: addresses nothing more is sent to (a hard bounce at RCPT/DATA, a
// DSN or a provider event that says the mailbox does not exist). Visible and removable by the
// merchant on the Notifications page; tenancy: every read and write names the shop.
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";

export interface Suppression {
  address: string;
  reason: string;
  created_at: string;
}

/** Adds the address; `db` is the transaction that records the bounce, so both are seen together. */
export async function suppress(shopId: string, address: string, reason: string, db: Prisma.TransactionClient | typeof prisma = prisma): Promise<void> {
  const a = address.trim().toLowerCase();
  await db.emailSuppression.upsert({
    where: { shopId_address: { shopId, address: a } },
    create: { shopId, address: a, reason: reason.slice(0, 500) },
    update: {},
  });
}

export async function isSuppressed(shopId: string, address: string): Promise<boolean> {
  return (await prisma.emailSuppression.count({ where: { shopId, address: address.trim().toLowerCase() } })) > 0;
}

export async function listSuppressions(shopId: string, limit = 200): Promise<Suppression[]> {
  const rows = await prisma.emailSuppression.findMany({ where: { shopId }, orderBy: [{ createdAt: "desc" }, { address: "asc" }], take: limit });
  return rows.map((r) => ({ address: r.address, reason: r.reason, created_at: r.createdAt.toISOString() }));
}

/** Removes an address from the list; true when it was there. */
export async function unsuppress(shopId: string, address: string): Promise<boolean> {
  const { count } = await prisma.emailSuppression.deleteMany({ where: { shopId, address: address.trim().toLowerCase() } });
  return count > 0;
}
