// Win-back campaigns: each campaign's status and what it brought back, the sent group beside the
// hold-out (docs/decisions/115-winback-audience.md, 117-winback-campaign-job.md).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Card, EmptyState, IndexTable, Layout, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { StatusBadge, formatMoneyList, formatRate } from "../embedded/winback-results";
import { listCampaigns } from "../domain/retention/winback.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const page = await listCampaigns({ shopId: shop.id, page: { limit: 250, after: null } });
  return json({
    campaigns: page.data.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      sent: c.results.sent.customers,
      heldOut: c.results.holdout.customers,
      sentRate: c.results.sentRate,
      holdoutRate: c.results.holdoutRate,
      raw: c.results.revenue.map((r) => r.raw),
      incremental: c.results.revenue.flatMap((r) => (r.incremental ? [r.incremental] : [])),
      hasHoldout: c.results.holdout.customers > 0,
    })),
  });
};

export default function WinbackCampaigns() {
  const { campaigns } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Win-back campaigns"
      subtitle="E-mail customers who cancelled an offer to come back, and measure what it added against a hold-out."
      primaryAction={{ content: "Create campaign", url: "/app/winback/new" }}
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            {campaigns.length === 0 ? (
              <EmptyState heading="Create your first win-back campaign" action={{ content: "Create campaign", url: "/app/winback/new" }} image="">
                <p>Choose who to win back (reasons, how long ago they cancelled), the offer and the delay. A campaign is a draft until you start it.</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "campaign", plural: "campaigns" }}
                itemCount={campaigns.length}
                selectable={false}
                headings={[
                  { title: "Campaign" },
                  { title: "Status" },
                  { title: "Sent" },
                  { title: "Held out" },
                  { title: "Came back (sent / held out)" },
                  { title: "Recovered" },
                  { title: "Added by the campaign" },
                ]}
              >
                {campaigns.map((c, i) => (
                  <IndexTable.Row id={c.id} key={c.id} position={i}>
                    <IndexTable.Cell>
                      <Button variant="plain" url={`/app/winback/${c.id}`}>
                        {c.name}
                      </Button>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <StatusBadge status={c.status} />
                    </IndexTable.Cell>
                    <IndexTable.Cell>{c.sent}</IndexTable.Cell>
                    <IndexTable.Cell>{c.heldOut}</IndexTable.Cell>
                    <IndexTable.Cell>{`${formatRate(c.sentRate)} / ${formatRate(c.holdoutRate)}`}</IndexTable.Cell>
                    <IndexTable.Cell>{formatMoneyList(c.raw)}</IndexTable.Cell>
                    <IndexTable.Cell>
                      {c.hasHoldout ? (
                        formatMoneyList(c.incremental)
                      ) : (
                        <Text as="span" tone="subdued">
                          No hold-out yet
                        </Text>
                      )}
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            )}
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
