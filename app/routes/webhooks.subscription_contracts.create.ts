// Shopify webhook subscription_contracts/create (declared in shopify.app.toml).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "subscription_contracts/create");
