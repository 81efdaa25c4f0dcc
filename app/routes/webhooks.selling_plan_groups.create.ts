// Shopify webhook selling_plan_groups/create (declared in shopify.app.toml): the mirror re-reads the
// group like on /update (docs/decisions/111-selling-plan-writes.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "selling_plan_groups/create");
