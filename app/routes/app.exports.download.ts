// The Export Center's streamed download (admin session; app/embedded/export-center.server.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { exportCenterDownload } from "../embedded/export-center.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return exportCenterDownload(session.shop, new URL(request.url).searchParams);
};
