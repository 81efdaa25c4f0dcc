// The embedded app's home: which shop, which plan, how much of its subscriptions the mirror holds.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { shopOverview } from "../domain/shop-lifecycle.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return json({ overview: await shopOverview(session.shop) });
};

export default function Index() {
  const { overview } = useLoaderData<typeof loader>();
  return (
    <Page title="Subscriptions Service">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {overview.domain}
              </Text>
              <Text as="p">
                {overview.plan === "PRO" ? "Pro plan" : "Free plan"} · {overview.contracts} subscriptions mirrored
              </Text>
              <Text as="p" tone="subdued">
                API keys, outbound webhooks, exports and the Risk Center live here. The API reference is served at /docs.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
