// Bundles: the shop's build-a-box, curated and regular bundles (docs/decisions/105-bundle-builder.md).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Text } from "@shopify/polaris";
import { CatalogList } from "../embedded/catalog-list";
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
    <CatalogList
      title="Bundles"
      subtitle="Boxes your subscribers build or you curate, month by month."
      create={{ content: "Create bundle", url: "/app/bundles/new" }}
      empty={{
        heading: "Create your first bundle",
        body: "Sell a box on one of your plans: subscribers pick from each month's menu, or you choose the contents.",
      }}
      resourceName={{ singular: "bundle", plural: "bundles" }}
      headings={["Kind", "Plan", "Latest menu"]}
      rows={bundles}
      editUrl={(b) => `/app/bundles/${b.id}`}
      cells={(b) => [
        <Badge key="kind">{KIND_LABEL[b.kind]}</Badge>,
        b.groupName,
        b.latestPeriod ? (
          <Text as="span">{`${b.latestPeriod} · ${b.latestPublished ? "published" : "draft"}`}</Text>
        ) : (
          <Text as="span" tone="subdued">
            {b.kind === "REGULAR" ? "No menus" : "None yet"}
          </Text>
        ),
      ]}
    />
  );
}
