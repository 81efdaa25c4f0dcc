// Risk Center: every open risk of the shop, most severe first, each with what to do and a link
// to fix it. The checks: app/domain/shop/risks.server.ts.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { openRisks } from "../domain/shop/risks.server";
import { SeverityBadge } from "../embedded/severity";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json({ risks: await openRisks(shop.id) });
};

export default function RiskCenter() {
  const { risks } = useLoaderData<typeof loader>();
  return (
    <Page title="Risk Center" subtitle="What could break your integrations or your figures, most severe first.">
      <Layout>
        <Layout.Section>
          {risks.length === 0 ? (
            <Card>
              <Text as="p">No open risks. Checks run each time you open this page.</Text>
            </Card>
          ) : (
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {risks.length} open risk{risks.length === 1 ? "" : "s"}
              </Text>
              <ul aria-label="Open risks" style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "12px" }}>
                {risks.map((r) => (
                  <li key={r.id}>
                    <Card>
                      <BlockStack gap="200">
                        <InlineStack gap="200" blockAlign="center">
                          <SeverityBadge severity={r.severity} />
                          <Text as="span" tone="subdued">
                            {r.area}
                          </Text>
                        </InlineStack>
                        <Text as="h3" variant="headingSm">
                          {r.title}
                        </Text>
                        <Text as="p">{r.action}</Text>
                        <InlineStack>
                          <Button url={r.link.url}>{r.link.label}</Button>
                        </InlineStack>
                      </BlockStack>
                    </Card>
                  </li>
                ))}
              </ul>
            </BlockStack>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
