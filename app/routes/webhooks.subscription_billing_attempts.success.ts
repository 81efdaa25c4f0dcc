// Shopify webhook subscription_billing_attempts/success (declared in shopify.app.toml; docs/decisions/080).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "subscription_billing_attempts/success");
