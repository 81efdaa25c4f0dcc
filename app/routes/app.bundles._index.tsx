// Bundles: the shop's build-a-box, curated and regular bundles (docs/decisions/105-bundle-builder.md).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Button, Card, EmptyState, IndexTable, Layout, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { listBundleRows } from "../domain/catalog/bundle-builder.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json({ bundles: await listBundleRows(shop.id) });
};

const KIND_LABEL = { BUILD_A_BOX: "Build-a-box", CURATED: "Curated", REGULAR: "Regular" } as const;

export default function Bundles() {
  const { bundles } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Bundles"
      subtitle="Boxes your subscribers build or you curate, month by month."
      primaryAction={{ content: "Create bundle", url: "/app/bundles/new" }}
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            {bundles.length === 0 ? (
              <EmptyState heading="Create your first bundle" action={{ content: "Create bundle", url: "/app/bundles/new" }} image="">
                <p>Sell a box on one of your plans: subscribers pick from each month&apos;s menu, or you choose the contents.</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "bundle", plural: "bundles" }}
                itemCount={bundles.length}
                selectable={false}
                headings={[{ title: "Title" }, { title: "Kind" }, { title: "Plan" }, { title: "Latest menu" }]}
              >
                {bundles.map((b, i) => (
                  <IndexTable.Row id={b.id} key={b.id} position={i}>
                    <IndexTable.Cell>
                      <Button variant="plain" url={`/app/bundles/${b.id}`}>
                        {b.title}
                      </Button>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Badge>{KIND_LABEL[b.kind]}</Badge>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{b.groupName}</IndexTable.Cell>
                    <IndexTable.Cell>
                      {b.latestPeriod ? (
                        <Text as="span">{`${b.latestPeriod} · ${b.latestPublished ? "published" : "draft"}`}</Text>
                      ) : (
                        <Text as="span" tone="subdued">
                          {b.kind === "REGULAR" ? "No menus" : "None yet"}
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
