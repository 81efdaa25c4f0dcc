// Mix & Match: the shop's pick-your-own selections (docs/decisions/107-mix-match-editor.md).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Card, EmptyState, IndexTable, Layout, Page } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { listMixMatchRows } from "../domain/catalog/mixmatch-builder.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json({ rows: await listMixMatchRows(shop.id) });
};

export default function MixMatchList() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Mix & Match"
      subtitle="Shoppers pick their own selection from your categories."
      primaryAction={{ content: "Create selection", url: "/app/mixmatch/new" }}
    >
      <Layout>
        <Layout.Section>
          <Card padding="0">
            {rows.length === 0 ? (
              <EmptyState heading="Create your first Mix & Match selection" action={{ content: "Create selection", url: "/app/mixmatch/new" }} image="">
                <p>Group products into categories; shoppers pick between the fewest and the most items you allow.</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "selection", plural: "selections" }}
                itemCount={rows.length}
                selectable={false}
                headings={[{ title: "Title" }, { title: "Plan" }, { title: "Categories" }, { title: "Items" }]}
              >
                {rows.map((m, i) => (
                  <IndexTable.Row id={m.id} key={m.id} position={i}>
                    <IndexTable.Cell>
                      <Button variant="plain" url={`/app/mixmatch/${m.id}`}>
                        {m.title}
                      </Button>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{m.groupName}</IndexTable.Cell>
                    <IndexTable.Cell>{m.categories}</IndexTable.Cell>
                    <IndexTable.Cell>{`${m.minItems}–${m.maxItems}`}</IndexTable.Cell>
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
