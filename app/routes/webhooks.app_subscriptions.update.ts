// Shopify webhook app_subscriptions/update (declared in shopify.app.toml): a charge of the app
// changed status (approved, declined, cancelled, frozen). The app re-reads its live charges from
// Shopify Billing rather than trusting the payload, so order and replays do not matter; done
// inline (one GraphQL call) and answered 500 on failure so Shopify retries (decision 064).
import type { ActionFunctionArgs } from "@remix-run/node";
import { syncPlanFromBilling } from "../domain/shop/app-plan.server";
import { log } from "../infra/log.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { authenticate } = await import("../shopify.server");
  let shop: string;
  try {
    ({ shop } = await authenticate.webhook(request));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown; // 401 bad HMAC, 400 missing headers, 405
    throw thrown;
  }
  try {
    await syncPlanFromBilling(shop);
  } catch (err) {
    log.error("app_subscriptions/update: plan not re-read from Shopify Billing; Shopify will retry", { err, shop });
    return new Response(null, { status: 500 });
  }
  return new Response(null, { status: 200 });
};
