// Create (/app/bundles/new) or edit (/app/bundles/<id>) a bundle, with its menus per period
// (docs/decisions/105-bundle-builder.md). The form is app/embedded/bundle-editor.tsx.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, EmptyState, IndexTable, Page, Text } from "@shopify/polaris";
import { postedForm, UNREADABLE, useCatalogSave } from "../embedded/catalog-form";
import { adminContext } from "../embedded/context.server";
import { BundleEditor, newSize } from "../embedded/bundle-editor";
import { bundleForm, bundleGroupOptions, createBundle, updateBundle } from "../domain/catalog/bundle-builder.server";
import { listMenus, suggestedPeriod } from "../domain/catalog/box-menu-builder.server";
import type { BundleForm, FieldErrors } from "../domain/catalog/bundle-form";

const EMPTY: BundleForm = { title: "", kind: "BUILD_A_BOX", groupGid: "", selectionCutoffDays: 3, sizes: [{ ...newSize(), label: "Regular" }] };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const groups = await bundleGroupOptions(shop.id);
  if (params.id === "new") return json({ id: null, form: EMPTY, groups, menus: [], nextPeriod: null });
  const form = await bundleForm(shop.id, params.id ?? "");
  if (!form) throw new Response("No such bundle", { status: 404 });
  return json({ id: form.id, form, groups, menus: await listMenus(shop.id, form.id), nextPeriod: await suggestedPeriod(form.id) });
};

type ActionResult = { ok: true; bundleId: string } | { ok: false; errors: FieldErrors };

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { shop } = await adminContext(request);
  const input = await postedForm(request);
  if (input === null) return json<ActionResult>(UNREADABLE, 400);
  const ctx = { shopId: shop.id, shopDomain: shop.domain };
  const r = params.id === "new" ? await createBundle(ctx, input) : await updateBundle(ctx, params.id ?? "", input);
  // A refusal is the form's answer, not a failed request: 200 keeps the browser console clean.
  return json<ActionResult>(r);
};

export default function BundlePage() {
  const { id, form, groups, menus, nextPeriod } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { errors, saving, save } = useCatalogSave<ActionResult>("Bundle saved", (r) => {
    if (!id && r.ok) navigate(`/app/bundles/${r.bundleId}`);
  });
  const hasMenus = form.kind !== "REGULAR";
  return (
    <Page
      title={id ? form.title : "Create bundle"}
      backAction={{ content: "Bundles", url: "/app/bundles" }}
      secondaryActions={id && hasMenus && nextPeriod ? [{ content: `Build the ${nextPeriod} menu`, url: `/app/bundles/${id}/menus/${nextPeriod}` }] : []}
    >
      <BlockStack gap="400">
        <BundleEditor key={id ?? "new"} initial={form as BundleForm} isNew={!id} groups={groups} errors={errors} saving={saving} onSave={save} />
        {id && hasMenus && (
          <Card padding="0">
            <BlockStack gap="200">
              <div style={{ padding: "16px 16px 0" }}>
                <Text as="h2" variant="headingMd">
                  Menus
                </Text>
              </div>
              {menus.length === 0 ? (
                <EmptyState
                  heading="No menus yet"
                  action={nextPeriod ? { content: `Build the ${nextPeriod} menu`, url: `/app/bundles/${id}/menus/${nextPeriod}` } : undefined}
                  image=""
                >
                  <p>Each month&apos;s menu is a draft until you publish it.</p>
                </EmptyState>
              ) : (
                <IndexTable
                  resourceName={{ singular: "menu", plural: "menus" }}
                  itemCount={menus.length}
                  selectable={false}
                  headings={[{ title: "Month" }, { title: "Status" }, { title: "Items" }]}
                >
                  {menus.map((m, i) => (
                    <IndexTable.Row id={m.period} key={m.period} position={i}>
                      <IndexTable.Cell>
                        <Button variant="plain" url={`/app/bundles/${id}/menus/${m.period}`}>
                          {m.period}
                        </Button>
                      </IndexTable.Cell>
                      <IndexTable.Cell>{m.published ? <Badge tone="success">Published</Badge> : <Badge>Draft</Badge>}</IndexTable.Cell>
                      <IndexTable.Cell>{m.items}</IndexTable.Cell>
                    </IndexTable.Row>
                  ))}
                </IndexTable>
              )}
            </BlockStack>
          </Card>
        )}
      </BlockStack>
    </Page>
  );
}
