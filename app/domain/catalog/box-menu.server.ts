// Publishing a build-a-box menu (docs/email.md, "Box mail"). The one write that opens a period for
// picking: the box of (bundle, period) becomes published and, in the same transaction, every
// ACTIVE contract on the bundle's selling plan group whose next charge ships that period (and
// whose cutoff is still ahead) gets one `box_menu_published` outbox row, keyed per (contract, bundle,
// period): publishing again, or after an unpublish, sends nothing twice. The Bundles page
// calls this through saveMenu (box-menu-builder.server.ts; docs/decisions/105-bundle-builder.md).
import { diffFields, recordAudit, recordRefusal } from "../audit/audit.server";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { dispatchMail, type Queued } from "../notifications/outbox.server";
import { queueBoxMenuOpen, selectionCutoff } from "../notifications/box-mail.server";

export interface PublishedMenu {
  bundleId: string;
  period: string;
  publishedAt: Date;
  /** Outbox rows written by this call (0 when every subscriber was told before). */
  queued: number;
}

/** Publishing a period's menu is a bundle write: one audit row in its transaction, or a failure row (docs/decisions/125-audit-log.md). */
export async function publishBoxMenu(shopId: string, bundleId: string, period: string, now = new Date()): Promise<PublishedMenu> {
  try {
    return await publishBoxMenuNow(shopId, bundleId, period, now);
  } catch (err) {
    return recordRefusal(err, { shopId, action: "bundle.publish_menu", target: { type: "bundle", id: bundleId } });
  }
}

async function publishBoxMenuNow(shopId: string, bundleId: string, period: string, now: Date): Promise<PublishedMenu> {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) throw new ApiError("invalid_request", `period must be YYYY-MM, not ${period}`);
  const shop = await prisma.shop.findUnique({ where: { id: shopId }, select: { domain: true, ianaTimezone: true } });
  const bundle = await prisma.bundle.findFirst({ where: { id: bundleId, shopId }, include: { group: { select: { groupGid: true } } } });
  if (!shop || !bundle) throw new ApiError("not_found", `No bundle ${bundleId}`);
  if (bundle.kind !== "BUILD_A_BOX") throw new ApiError("invalid_request", `Bundle ${bundleId} is not build-a-box`);
  const [y, m] = period.split("-").map(Number);
  const from = new Date(Date.UTC(y, m - 1, 1));
  const to = new Date(Date.UTC(y, m, 1));
  const { box, queued } = await prisma.$transaction(async (tx) => {
    const existing = await tx.bundleBox.findUnique({ where: { bundleId_period: { bundleId, period } } });
    if (!existing) throw new ApiError("not_found", `No box for ${period} in bundle ${bundleId}`);
    const box = existing.published ? existing : await tx.bundleBox.update({ where: { id: existing.id }, data: { published: true, publishedAt: now } });
    await recordAudit(tx, {
      shopId,
      action: "bundle.publish_menu",
      target: { type: "bundle", id: bundleId },
      outcome: "success",
      changes: diffFields({ period, published: existing.published }, { period, published: box.published }, ["period", "published"]),
    });
    const contracts = await tx.contract.findMany({
      where: { shopId, status: "ACTIVE", sellingPlanGroupGid: bundle.group.groupGid, nextBillingAt: { gte: from, lt: to } },
      select: { contractGid: true, customerGid: true, productTitle: true, nextBillingAt: true, chargeAmountCents: true, currencyCode: true },
      orderBy: { id: "asc" },
    });
    const queued: (Queued | null)[] = [];
    for (const c of contracts) {
      if (!c.nextBillingAt || selectionCutoff(c.nextBillingAt, bundle.selectionCutoffDays) <= now) continue; // picking already closed
      queued.push(
        await queueBoxMenuOpen(tx, {
          shopId,
          shopDomain: shop.domain,
          timeZone: shop.ianaTimezone,
          bundle,
          period,
          contract: { ...c, nextBillingAt: c.nextBillingAt },
        }),
      );
    }
    return { box, queued };
  });
  await dispatchMail(queued);
  return { bundleId, period, publishedAt: box.publishedAt ?? now, queued: queued.filter(Boolean).length };
}
