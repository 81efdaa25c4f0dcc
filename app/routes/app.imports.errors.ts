// The Import page's error file: the failed rows in the uploaded file's format (admin session).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { errorFileResponse } from "../embedded/import-center.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return errorFileResponse(session.shop, new URL(request.url).searchParams.get("id") ?? "");
};
