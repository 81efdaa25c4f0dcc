// Every /api/storefront/v1/* request (any method) goes to the Storefront surface kernel.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { storefrontApi } from "../surfaces/storefront/index.server";

export const loader = ({ request }: LoaderFunctionArgs) => storefrontApi.handle(request);
export const action = ({ request }: ActionFunctionArgs) => storefrontApi.handle(request);
