import { Card, Layout, Page, Text, BlockStack } from "@shopify/polaris";

export default function Index() {
  return (
    <Page title="Subscriptions Service">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">Developer platform</Text>
              <Text as="p">
                API keys, outbound webhooks, exports and the Risk Center live here. The API reference is served at /docs.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
