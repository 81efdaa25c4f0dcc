// Shopify webhook app_subscriptions/update (declared in shopify.app.toml): a charge of the app
// changed status (approved, declined, cancelled, frozen). The app re-reads its live charges from
// Shopify Billing rather than trusting the payload, so order and replays do not matter; done
// inline (one GraphQL call) and answered 500 on failure so Shopify retries (decision 064). A
// shop without an offline token (never installed, or uninstalled) has nothing to re-read: 200,
// since a retry could never succeed (docs/decisions/093).
import type { ActionFunctionArgs } from "@remix-run/node";
import { syncPlanFromBilling } from "../domain/shop/app-plan.server";
import { log } from "../infra/log.server";
import { isPlatformError } from "../platform/errors";
import { verifyShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const verified = await verifyShopifyWebhook(request, "app_subscriptions/update");
  if (verified instanceof Response) return verified;
  const { shop } = verified;
  try {
    await syncPlanFromBilling(shop);
  } catch (err) {
    if (isPlatformError(err) && err.kind === "shop_unavailable") {
      log.info("app_subscriptions/update for a shop without an offline token: nothing to re-read", { shop });
      return new Response(null, { status: 200 });
    }
    log.error("app_subscriptions/update: plan not re-read from Shopify Billing; Shopify will retry", { err, shop });
    return new Response(null, { status: 500 });
  }
  return new Response(null, { status: 200 });
};
