// The embedded app's home: where things stand (plan, subscriptions by status, MRR, open risks)
// and the next step. Data: app/domain/shop/home.server.ts.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineGrid, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { homeView } from "../domain/shop/home.server";
import { mrrJson } from "../surfaces/admin/wire";
import { statusLabel } from "../embedded/format";
import { useFormat } from "../embedded/shop-format";
import { SeverityBadge } from "../embedded/severity";
import { SectionCard } from "../embedded/section-card";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const home = await homeView(shop);
  return json({ home: { ...home, mrr: mrrJson(home.mrr) } });
};

export default function Index() {
  const { formatMoneyList } = useFormat();
  const { home } = useLoaderData<typeof loader>();
  return (
    <Page title="Subscriptions Service">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center" wrap>
                <Text as="h2" variant="headingMd">
                  {home.domain}
                </Text>
                <Badge tone={home.plan === "PRO" ? "success" : undefined}>{home.plan === "PRO" ? "Pro plan" : "Free plan"}</Badge>
              </InlineStack>
              <Text as="p">
                {home.total} subscriptions · Developer API {home.apiEnabled ? "on" : "off"}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        {home.nextStep && (
          <Layout.Section>
            <SectionCard title={<>Next step: {home.nextStep.title}</>} gap="200">
              <Text as="p">{home.nextStep.detail}</Text>
              <InlineStack>
                <Button variant="primary" url={home.nextStep.link.url}>
                  {home.nextStep.link.label}
                </Button>
              </InlineStack>
            </SectionCard>
          </Layout.Section>
        )}
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
            <SectionCard title="Subscriptions by status" gap="200">
              <BlockStack gap="100">
                {home.byStatus.map((s) => (
                  <InlineStack key={s.status} align="space-between">
                    <Text as="span">{statusLabel(s.status)}</Text>
                    <Text as="span" fontWeight="semibold">
                      {s.count}
                    </Text>
                  </InlineStack>
                ))}
              </BlockStack>
              <InlineStack>
                <Button url="/app/subscriptions">View subscriptions</Button>
              </InlineStack>
            </SectionCard>
            <SectionCard title="Monthly recurring revenue" gap="200">
              <Text as="p" variant="headingLg">
                {formatMoneyList(home.mrr.mrr)}
              </Text>
              <Text as="p" tone="subdued">
                {home.mrr.active_contracts} active subscriptions
                {home.mrr.contracts_missing_amount > 0 ? ` · ${home.mrr.contracts_missing_amount} without a monthly amount (counted as zero)` : ""}
              </Text>
              <InlineStack>
                <Button url="/app/analytics">Open analytics</Button>
              </InlineStack>
            </SectionCard>
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title={<>Open risks: {home.risks.length}</>} gap="200">
            {home.risks.length === 0 ? (
              <Text as="p">Nothing needs your attention.</Text>
            ) : (
              <BlockStack gap="100">
                {home.risks.slice(0, 3).map((r) => (
                  <InlineStack key={r.id} gap="200" blockAlign="center" wrap={false}>
                    <SeverityBadge severity={r.severity} />
                    <Text as="span">{r.title}</Text>
                  </InlineStack>
                ))}
              </BlockStack>
            )}
            <InlineStack>
              <Button url="/app/risks">Open Risk Center</Button>
            </InlineStack>
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
