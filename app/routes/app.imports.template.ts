// The Import page's template (docs/decisions/151-import-presets.md): this app's migration columns
// and one example subscription of two lines, as a CSV to fill in and upload. A GET that changes
// nothing; the embedded admin's session authenticates it like every /app page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { templateCsv } from "../embedded/import-center.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return new Response(`\uFEFF${templateCsv()}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="subscriptions-import-template.csv"',
      "Cache-Control": "private, no-store",
    },
  });
};
