// Every /api/admin/v1/* request (any method) goes to the Admin surface kernel.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { adminApi } from "../surfaces/admin/index.server";

export const loader = ({ request }: LoaderFunctionArgs) => adminApi.handle(request);
export const action = ({ request }: ActionFunctionArgs) => adminApi.handle(request);
