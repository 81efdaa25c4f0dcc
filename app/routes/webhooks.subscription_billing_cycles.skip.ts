// Shopify webhook subscription_billing_cycles/skip (declared in shopify.app.toml): a skip made at
// Shopify gets its confirmation e-mail (app/domain/subscriptions/skip-confirmation.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "subscription_billing_cycles/skip");
