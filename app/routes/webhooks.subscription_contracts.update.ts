// Shopify webhook subscription_contracts/update (declared in shopify.app.toml).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "subscription_contracts/update");
