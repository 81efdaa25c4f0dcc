// Every /api/customer/v1/* request (any method) goes to the Customer surface kernel.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { customerApi } from "../surfaces/customer/index.server";

export const loader = ({ request }: LoaderFunctionArgs) => customerApi.handle(request);
export const action = ({ request }: ActionFunctionArgs) => customerApi.handle(request);
