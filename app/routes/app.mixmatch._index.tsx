// Mix & Match: the shop's pick-your-own selections (docs/decisions/107-mix-match-editor.md).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CatalogList } from "../embedded/catalog-list";
import { adminContext } from "../embedded/context.server";
import { listMixMatchRows } from "../domain/catalog/mixmatch-builder.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  return json({ rows: await listMixMatchRows(shop.id) });
};

export default function MixMatchList() {
  const { rows } = useLoaderData<typeof loader>();
  const create = { content: "Create selection", url: "/app/mixmatch/new" };
  return (
    <CatalogList
      title="Mix & Match"
      subtitle="Shoppers pick their own selection from your categories."
      create={create}
      empty={{
        heading: "Create your first Mix & Match selection",
        body: "Group products into categories; shoppers pick between the fewest and the most items you allow.",
      }}
      resourceName={{ singular: "selection", plural: "selections" }}
      headings={["Plan", "Categories", "Items"]}
      rows={rows}
      editUrl={(m) => `/app/mixmatch/${m.id}`}
      cells={(m) => [m.groupName, m.categories, `${m.minItems}–${m.maxItems}`]}
    />
  );
}
