// Renewal reminders (docs/decisions/082): subscription.renewal_reminder `reminderDays` before each
// charge, once per contract and cycle. contracts.reminded_for records the next_billing_at whose
// reminder went out, set in the transaction that publishes the event and queues the customer's
// e-mail (the mail outbox, docs/decisions/101: key renewal_reminder:<contract>:<due date>, so a
// moved date is one more e-mail, once); the event's source key
// (renewal-reminder:<contract>:<due date>) would refuse a second one anyway. A contract rescheduled
// to a new date gets a reminder for the new date; one moved back to a reminded date does not.
import { prisma } from "../../db.server";
import { money } from "../shared/money.server";
import { dispatchDeliveries } from "../outbound-webhooks/jobs.server";
import { publishEvent, type Published } from "../outbound-webhooks/publish.server";
import { billingPolicy } from "./policy.server";
import { dispatchMail, queueMail, type Queued } from "../notifications/outbox.server";
import { contractVars } from "../notifications/vars.server";

const PAGE = 500;

interface Candidate {
  id: string;
  contract_gid: string;
  customer_gid: string;
  next_billing_at: Date;
  charge_amount_cents: number | null;
  currency_code: string;
  product_title: string | null;
}

/** Publishes every reminder due at `now` for the shop; returns how many went out. */
export async function sendDueReminders(shopId: string, now: Date): Promise<number> {
  const { reminderDays } = await billingPolicy(shopId);
  const { domain } = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { domain: true } });
  if (reminderDays <= 0) return 0;
  const horizon = new Date(now.getTime() + reminderDays * 86_400_000);
  let sent = 0;
  for (;;) {
    const page = await prisma.$queryRaw<Candidate[]>`
      SELECT id, contract_gid, customer_gid, next_billing_at, charge_amount_cents, currency_code, product_title
      FROM contracts
      WHERE shop_id = ${shopId} AND status = 'ACTIVE' AND created_by_service
        AND next_billing_at > ${now} AND next_billing_at <= ${horizon}
        AND reminded_for IS DISTINCT FROM next_billing_at
      ORDER BY next_billing_at, id
      LIMIT ${PAGE}`;
    if (!page.length) break;
    for (const c of page) {
      const mail: (Queued | null)[] = [];
      const announced = await prisma.$transaction(async (tx): Promise<Published[]> => {
        // Only the run that moves reminded_for publishes (two runners at once send one reminder).
        const claimed = await tx.contract.updateMany({
          where: { id: c.id, nextBillingAt: c.next_billing_at, NOT: { remindedFor: c.next_billing_at } },
          data: { remindedFor: c.next_billing_at },
        });
        const claimedNull = claimed.count
          ? claimed
          : await tx.contract.updateMany({
              where: { id: c.id, nextBillingAt: c.next_billing_at, remindedFor: null },
              data: { remindedFor: c.next_billing_at },
            });
        if (!claimedNull.count) return [];
        const published = await publishEvent(tx, {
          shopId,
          type: "subscription.renewal_reminder",
          sourceKey: `renewal-reminder:${c.contract_gid}:${c.next_billing_at.toISOString()}`,
          occurredAt: now,
          data: {
            contract_id: c.contract_gid,
            customer_id: c.customer_gid,
            next_billing_at: c.next_billing_at.toISOString(),
            amount: money(c.charge_amount_cents, c.currency_code),
          },
        });
        mail.push(
          await queueMail(tx, {
            shopId,
            kind: "renewal_reminder",
            customerGid: c.customer_gid,
            contractGid: c.contract_gid,
            cycle: c.next_billing_at.toISOString(),
            vars: contractVars(domain, {
              contractGid: c.contract_gid,
              productTitle: c.product_title,
              nextBillingAt: c.next_billing_at,
              chargeAmountCents: c.charge_amount_cents,
              currencyCode: c.currency_code,
            }),
          }),
        );
        sent += published.created ? 1 : 0;
        return [published];
      });
      await dispatchDeliveries(announced);
      await dispatchMail(mail);
    }
    if (page.length < PAGE) break;
  }
  return sent;
}
