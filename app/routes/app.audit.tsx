// The Audit log: who changed what, from where, and how it ended (docs/decisions/125-audit-log.md).
// The same trail GET /audit-events serves; read-only, so the page has a loader and no action.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Layout, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { auditPageData } from "../embedded/audit/page.server";
import { AuditLog } from "../embedded/audit/audit-log";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json(await auditPageData(shop.id, new URL(request.url).searchParams));
};

export default function AuditPage() {
  const d = useLoaderData<typeof loader>();
  return (
    <Page title="Audit log">
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p" tone="subdued">
              Every change to subscriptions, API keys, webhook endpoints, exports, imports, plans and settings, by whom (an API key, a staff member, a customer
              or the app itself) and how it ended. Kept {d.retentionDays} days. Secrets are never recorded.
            </Text>
            {d.cursorError && <Banner tone="warning">{d.cursorError}</Banner>}
            <AuditLog events={d.events} filters={d.filters} actorTypes={d.actorTypes} targetTypes={d.targetTypes} paged={d.paged} nextCursor={d.nextCursor} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
