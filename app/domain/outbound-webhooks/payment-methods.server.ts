// customer_payment_methods/update → customer.payment_method_updated. The event needs nothing read
// from the platform, so it (and its deliveries) is published inline, in the transaction that
// stores the inbound webhook's dedupe row: stored, announced and acknowledged at once
// (docs/decisions/050, 051). The customer's contracts are read again afterwards by a job
// ("refresh-customer-cards"), for the card expiry they mirror (docs/decisions/158).
import type { Prisma } from "@prisma/client";
import { publishEvent, type Published } from "./publish.server";

type Tx = Prisma.TransactionClient;

export interface PaymentMethodWebhook {
  shopDomain: string;
  webhookId: string;
  payload: Record<string, unknown>;
}

const gidOf = (type: string, gid: unknown, id: unknown): string | null =>
  typeof gid === "string" && gid.startsWith(`gid://shopify/${type}/`)
    ? gid
    : id !== undefined && id !== null && /^[A-Za-z0-9-]+$/.test(String(id))
      ? `gid://shopify/${type}/${String(id)}`
      : null;

/** The customer whose payment method the webhook is about, as a gid (null when the payload names none). */
export const paymentMethodCustomer = (p: Record<string, unknown>): string | null => gidOf("Customer", p.admin_graphql_api_customer_id, p.customer_id);

export async function announcePaymentMethodUpdate(tx: Tx, hook: PaymentMethodWebhook): Promise<Published | null> {
  const shop = await tx.shop.findUnique({ where: { domain: hook.shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return null;
  const p = hook.payload;
  const customerId = paymentMethodCustomer(p);
  const paymentMethodId = gidOf("CustomerPaymentMethod", p.admin_graphql_api_id, p.token ?? p.id);
  if (!customerId || !paymentMethodId) return null; // nothing identifiable to announce
  return publishEvent(tx, {
    shopId: shop.id,
    type: "customer.payment_method_updated",
    sourceKey: `shopify-webhook:${hook.webhookId}`,
    data: { customer_id: customerId, payment_method_id: paymentMethodId, revoked: Boolean(p.revoked_at ?? p.revoked) },
  });
}
