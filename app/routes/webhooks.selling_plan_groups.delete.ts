// Shopify webhook selling_plan_groups/delete (declared in shopify.app.toml): the mirror re-reads the
// group like on /update (docs/decisions/111-selling-plan-writes.md); a group Shopify no longer has is archived.
import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveShopifyWebhook } from "../shopify/inbound-webhooks.server";

export const action = ({ request }: ActionFunctionArgs) => receiveShopifyWebhook(request, "selling_plan_groups/delete");
