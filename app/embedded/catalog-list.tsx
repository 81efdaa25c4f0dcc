// The list page the Bundles and Mix & Match pages share: a Page with its create action, an empty
// state until the first row, then an IndexTable whose first column links to the row's editor.
import type { ReactNode } from "react";
import { Button, Card, EmptyState, IndexTable, Layout, Page } from "@shopify/polaris";

export interface CatalogListProps<Row extends { id: string; title: string }> {
  title: string;
  subtitle: string;
  create: { content: string; url: string };
  empty: { heading: string; body: string };
  resourceName: { singular: string; plural: string };
  /** The columns after Title. */
  headings: string[];
  rows: Row[];
  editUrl: (row: Row) => string;
  /** The cells after the title's, one per heading. */
  cells: (row: Row) => ReactNode[];
}

export function CatalogList<Row extends { id: string; title: string }>(props: CatalogListProps<Row>) {
  const { rows } = props;
  return (
    <Page title={props.title} subtitle={props.subtitle} primaryAction={props.create}>
      <Layout>
        <Layout.Section>
          <Card padding="0">
            {rows.length === 0 ? (
              <EmptyState heading={props.empty.heading} action={props.create} image="">
                <p>{props.empty.body}</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={props.resourceName}
                itemCount={rows.length}
                selectable={false}
                headings={[{ title: "Title" }, ...props.headings.map((title) => ({ title }))] as [{ title: string }, ...{ title: string }[]]}
              >
                {rows.map((row, i) => (
                  <IndexTable.Row id={row.id} key={row.id} position={i}>
                    <IndexTable.Cell>
                      <Button variant="plain" url={props.editUrl(row)}>
                        {row.title}
                      </Button>
                    </IndexTable.Cell>
                    {props.cells(row).map((cell, c) => (
                      <IndexTable.Cell key={props.headings[c]}>{cell}</IndexTable.Cell>
                    ))}
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
