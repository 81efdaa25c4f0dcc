// Card-expiring notices (docs/email.md): 30 and 7 days before the end of the expiry month of the
// card a customer's active subscriptions are charged to, once each. Run daily ("card-expiry" job
// scheduler) for every installed shop: one platform read per customer with an active contract
// (their first contract's payment method), one outbox row per notice under the key
// payment_method_expiring:<customer>:<payment method>:<MM/YYYY>:<30|7>, so a rerun sends nothing new.
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";
import { platformFor } from "../../platform/index.server";
import { dispatchMail, queueMail } from "./outbox.server";

const DAY = 86_400_000;

/** Which notice is due `now` for a card expiring at the end of month/year: 30, 7 or none. */
export function expiryNoticeDue(expiryMonth: number, expiryYear: number, now: Date): 30 | 7 | null {
  const end = Date.UTC(expiryYear, expiryMonth, 1); // first instant after the expiry month
  const left = end - now.getTime();
  if (left <= 0) return null;
  if (left <= 7 * DAY) return 7;
  if (left <= 30 * DAY) return 30;
  return null;
}

export async function queueCardExpiryNotices(shopDomain: string, now = new Date()): Promise<number> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return 0;
  const platform = await platformFor(shopDomain, "reminders");
  const customers = await prisma.contract.findMany({
    where: { shopId: shop.id, status: "ACTIVE", createdByService: true },
    distinct: ["customerGid"],
    orderBy: [{ customerGid: "asc" }, { createdAt: "asc" }],
    select: { customerGid: true, contractGid: true },
  });
  let queued = 0;
  for (const c of customers) {
    try {
      const pm = await platform.getPaymentMethod(c.contractGid);
      if (!pm?.expiryMonth || !pm.expiryYear) continue;
      const due = expiryNoticeDue(pm.expiryMonth, pm.expiryYear, now);
      if (!due) continue;
      const expiry = `${String(pm.expiryMonth).padStart(2, "0")}/${pm.expiryYear}`;
      const q = await queueMail(prisma, {
        shopId: shop.id,
        kind: "payment_method_expiring",
        customerGid: c.customerGid,
        contractGid: null,
        cycle: `${pm.id}:${expiry}:${due}`,
        vars: {
          shop_name: shopDomain.replace(/\.myshopify\.com$/, ""),
          card_brand: pm.brand ?? "card",
          card_last4: pm.last4 ?? "",
          card_expiry: expiry,
          manage_url: `https://${shopDomain}/account`,
        },
      });
      await dispatchMail([q]);
      if (q) queued++;
    } catch (err) {
      log.warn("card expiry check failed for a customer; next run tries again", { err, shop: shopDomain, customer: c.customerGid });
    }
  }
  return queued;
}
