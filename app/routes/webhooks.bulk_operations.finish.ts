// Shopify webhook bulk_operations/finish (declared in shopify.app.toml): a bulk read's operation
// ended (docs/decisions/097-bulk-reads.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "bulk_operations/finish");
