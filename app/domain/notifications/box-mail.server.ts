// Build-a-box mail (docs/email.md): `box_menu_published` when a period's menu is published (written by
// the catalog's publishBoxMenu in its transaction) and `box_reminder`, a daily job ("box-reminder"
// job scheduler) for subscribers who have not picked yet and whose selection cutoff (next charge
// minus the bundle's selection_cutoff_days) falls within the next BOX_REMINDER_LEAD_DAYS days.
// Both are category `box` (the customer's preference gates them; List-Unsubscribe like every
// non-essential message). Keys: box_menu_published:<contract>:<bundle>:<period>, so publishing again
// sends nothing; box_reminder:<contract>:<charge date>, so a rerun sends nothing and a moved
// charge date sends once more (the renewal reminder's rule).
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { dispatchMail, queueMail, type Queued } from "./outbox.server";
import { contractVars } from "./vars.server";

const DAY = 86_400_000;

/** Why 2: docs/email.md ("Box mail"): the morning run two days ahead reaches everyone once, with a day to spare. */
export const BOX_REMINDER_LEAD_DAYS = 2;

/** The instant picking closes for a charge: selection_cutoff_days before it. */
export const selectionCutoff = (nextBillingAt: Date, cutoffDays: number) => new Date(nextBillingAt.getTime() - cutoffDays * DAY);

/** The cutoff as the customer reads it: date and time in the shop's time zone. */
export function pickUntil(cutoff: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone }).format(cutoff);
}

export interface BoxContract {
  contractGid: string;
  customerGid: string;
  productTitle: string | null;
  nextBillingAt: Date;
  chargeAmountCents: number | null;
  currencyCode: string;
}

interface BoxMailInput {
  shopId: string;
  shopDomain: string;
  timeZone: string;
  bundle: { id: string; title: string; selectionCutoffDays: number };
  period: string;
  contract: BoxContract;
}

function boxVars(i: BoxMailInput): Record<string, string> {
  const c = i.contract;
  return {
    ...contractVars(i.shopDomain, c),
    box_title: i.bundle.title,
    box_period: periodLabel(i.period),
    pick_until: pickUntil(selectionCutoff(c.nextBillingAt, i.bundle.selectionCutoffDays), i.timeZone),
  };
}

/** "March 2031" for "2031-03". */
export function periodLabel(period: string): string {
  const [y, m] = period.split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** The `box_menu_published` row of one subscriber, in the publishing transaction (null: queued before). */
export function queueBoxMenuOpen(tx: Prisma.TransactionClient, i: BoxMailInput): Promise<Queued | null> {
  return queueMail(tx, {
    shopId: i.shopId,
    kind: "box_menu_published",
    customerGid: i.contract.customerGid,
    contractGid: i.contract.contractGid,
    cycle: `${i.bundle.id}:${i.period}`,
    vars: boxVars(i),
  });
}

interface ReminderRow {
  contract_gid: string;
  customer_gid: string;
  product_title: string | null;
  next_billing_at: Date;
  charge_amount_cents: number | null;
  currency_code: string;
  bundle_id: string;
  bundle_title: string;
  selection_cutoff_days: number;
  period: string;
}

/**
 * One shop's box reminders due `now`: active contracts on a build-a-box bundle's group whose
 * cutoff is in (now, now + 2 days], whose period's menu is published and who have no saved pick,
 * read in one statement (a pick saved after it is read still gets this reminder; the key keeps it
 * to one).
 */
export async function queueBoxReminders(shopDomain: string, now = new Date()): Promise<number> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, installState: true, ianaTimezone: true } });
  if (!shop || shop.installState !== "INSTALLED") return 0;
  const horizon = new Date(now.getTime() + BOX_REMINDER_LEAD_DAYS * DAY);
  // The period is the charge date's month in UTC, the menu that charge ships (as box.server.ts; the
  // column holds UTC).
  const rows = await prisma.$queryRaw<ReminderRow[]>`
    WITH due AS (
      SELECT DISTINCT ON (c.id) c.shop_id, c.contract_gid, c.customer_gid, c.product_title, c.next_billing_at, c.charge_amount_cents,
             c.currency_code, b.id AS bundle_id, b.title AS bundle_title, b.selection_cutoff_days,
             to_char(c.next_billing_at, 'YYYY-MM') AS period
      FROM contracts c
      JOIN selling_plan_groups g ON g.shop_id = c.shop_id AND g.group_gid = c.selling_plan_group_gid
      JOIN bundles b ON b.group_id = g.id AND b.kind = 'BUILD_A_BOX'
      WHERE c.shop_id = ${shop.id} AND c.status = 'ACTIVE' AND c.next_billing_at IS NOT NULL
        AND c.next_billing_at - make_interval(days => b.selection_cutoff_days) > ${now}
        AND c.next_billing_at - make_interval(days => b.selection_cutoff_days) <= ${horizon}
      ORDER BY c.id, b.created_at)
    SELECT d.* FROM due d
    WHERE EXISTS (SELECT 1 FROM bundle_boxes m WHERE m.bundle_id = d.bundle_id AND m.period = d.period AND m.published)
      AND NOT EXISTS (SELECT 1 FROM box_selections s WHERE s.shop_id = d.shop_id AND s.contract_gid = d.contract_gid AND s.period = d.period)`;
  let queued = 0;
  for (const r of rows) {
    try {
      const q = await queueMail(prisma, {
        shopId: shop.id,
        kind: "box_reminder",
        customerGid: r.customer_gid,
        contractGid: r.contract_gid,
        cycle: r.next_billing_at.toISOString(),
        vars: boxVars({
          shopId: shop.id,
          shopDomain,
          timeZone: shop.ianaTimezone,
          bundle: { id: r.bundle_id, title: r.bundle_title, selectionCutoffDays: r.selection_cutoff_days },
          period: r.period,
          contract: {
            contractGid: r.contract_gid,
            customerGid: r.customer_gid,
            productTitle: r.product_title,
            nextBillingAt: r.next_billing_at,
            chargeAmountCents: r.charge_amount_cents,
            currencyCode: r.currency_code,
          },
        }),
      });
      await dispatchMail([q]);
      if (q) queued++;
    } catch (err) {
      log.warn("box reminder failed for a contract; next run tries again", { err, shop: shopDomain, contract: r.contract_gid });
    }
  }
  return queued;
}
