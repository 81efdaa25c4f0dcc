// Shopify webhook selling_plan_groups/update (declared in shopify.app.toml): a plan changed on
// the platform; the mirror re-reads it and the storefront metafields follow (decision 066).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "selling_plan_groups/update");
