// The hosted customer portal, reached through Shopify's app proxy (/apps/subscriptions/* on the
// shop's domain; shopify.app.toml [app_proxy]). Everything happens in app/surfaces/portal.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { portalRequest } from "../surfaces/portal/index.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => portalRequest(request, params["*"] ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => portalRequest(request, params["*"] ?? "");
