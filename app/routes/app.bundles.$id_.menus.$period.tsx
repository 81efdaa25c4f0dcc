// One period's menu of a bundle (docs/decisions/105-bundle-builder.md): a draft until published.
// Publishing (or saving a published menu) shows its impact first: whose saved picks name items the
// new menu drops, and who will get the fallback box at the cutoff.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Badge, Banner, BlockStack, Button, InlineStack, List, Modal, Page, Text } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { MenuItems, pickVariants } from "../embedded/menu-editor";
import { bundleForm } from "../domain/catalog/bundle-builder.server";
import { copyPreviousMenu, menuImpact, menuPage, saveMenu, validateMenu, type MenuImpact } from "../domain/catalog/box-menu-builder.server";
import { PERIOD, type FieldErrors, type MenuItemForm } from "../domain/catalog/bundle-form";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const period = params.period ?? "";
  const bundle = PERIOD.test(period) ? await bundleForm(shop.id, params.id ?? "") : null;
  const menu = bundle && bundle.kind !== "REGULAR" ? await menuPage(shop.id, bundle.id, period) : null;
  if (!bundle || !menu) throw new Response("No such menu", { status: 404 });
  const previousItems = menu.previousPeriod ? await copyPreviousMenu(shop.id, bundle.id, period) : null;
  return json({ bundle: { id: bundle.id, title: bundle.title, kind: bundle.kind }, menu, previousItems });
};

type ActionResult =
  | { intent: "impact"; ok: true; impact: MenuImpact }
  | { intent: "save" | "publish"; ok: true; published: boolean; mailed: number }
  | { intent: string; ok: false; errors: FieldErrors };

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { shop } = await adminContext(request);
  const body = await request.formData();
  const intent = String(body.get("intent") ?? "");
  let input: unknown;
  try {
    input = { period: params.period, items: JSON.parse(String(body.get("items") ?? "")) };
  } catch {
    return json<ActionResult>({ intent, ok: false, errors: { form: "The form could not be read." } }, 400);
  }
  const bundleId = params.id ?? "";
  const ctx = { shopId: shop.id, shopDomain: shop.domain };
  if (intent === "impact") {
    const errors = await validateMenu(ctx, bundleId, input);
    if (errors) return json<ActionResult>({ intent, ok: false, errors });
    const impact = await menuImpact(shop.id, bundleId, input);
    return json<ActionResult>("errors" in impact ? { intent, ok: false, errors: impact.errors } : { intent, ok: true, impact });
  }
  if (intent !== "save" && intent !== "publish") return json<ActionResult>({ intent, ok: false, errors: { form: "Unknown action." } }, 400);
  const r = await saveMenu(ctx, bundleId, input, { publish: intent === "publish" });
  // A refusal is the form's answer, not a failed request: 200 keeps the browser console clean.
  return json<ActionResult>(r.ok ? { intent, ok: true, published: r.published, mailed: r.mailed } : { intent, ok: false, errors: r.errors });
};

function ImpactModal(props: { impact: MenuImpact | null; published: boolean; onConfirm: () => void; onClose: () => void }) {
  const i = props.impact;
  return (
    <Modal open={!!i} onClose={props.onClose} title={props.published ? "Save the published menu?" : "Publish this menu?"}>
      <Modal.Section>
        {i && (
          <BlockStack gap="300">
            <Text as="p">{`${i.subscribers} subscriber${i.subscribers === 1 ? "" : "s"} ship in ${i.period}; ${i.picked} already picked.`}</Text>
            <Text as="p">{`${i.picksNamingDropped.length} saved pick${i.picksNamingDropped.length === 1 ? " names" : "s name"} items this menu drops.`}</Text>
            {i.droppedItems.length > 0 && (
              <List>
                {i.droppedItems.map((d) => (
                  <List.Item key={d.variantId}>{`Dropped: ${d.title}`}</List.Item>
                ))}
              </List>
            )}
            <Text as="p">{`${i.fallback.length} subscriber${i.fallback.length === 1 ? "" : "s"} will get the fallback box unless they pick before the cutoff.`}</Text>
            <InlineStack gap="200" align="end">
              <Button onClick={props.onClose}>Cancel</Button>
              <Button variant="primary" onClick={props.onConfirm}>
                {props.published ? "Save changes" : "Publish menu"}
              </Button>
            </InlineStack>
          </BlockStack>
        )}
      </Modal.Section>
    </Modal>
  );
}

export default function MenuPageRoute() {
  const { bundle, menu, previousItems } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const [items, setItems] = useState<MenuItemForm[]>(menu.items);
  const [impact, setImpact] = useState<MenuImpact | null>(null);
  const buildABox = bundle.kind === "BUILD_A_BOX";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok && result.intent === "impact") setImpact(result.impact);
    if (result?.ok && result.intent !== "impact")
      (window as { shopify?: { toast?: { show: (m: string) => void } } }).shopify?.toast?.show(result.intent === "publish" ? "Menu published" : "Menu saved");
  }, [result]);
  const submit = (intent: string) => fetcher.submit({ intent, items: JSON.stringify(items) }, { method: "post" });
  const published = menu.published || (result?.ok === true && result.intent === "publish");
  const errors = result && !result.ok ? result.errors : {};
  return (
    <Page
      title={`${bundle.title}: ${menu.period} menu`}
      titleMetadata={published ? <Badge tone="success">Published</Badge> : <Badge>Draft</Badge>}
      backAction={{ content: bundle.title, url: `/app/bundles/${bundle.id}` }}
      primaryAction={{ content: published ? "Review and save" : "Review and publish", onAction: () => submit("impact"), loading: fetcher.state !== "idle" }}
    >
      <BlockStack gap="400">
        {errors.form && (
          <Banner tone="critical" title="The menu was not saved">
            <p>{errors.form}</p>
          </Banner>
        )}
        {result?.ok && result.intent === "publish" && (
          <Banner tone="success" title="Menu published">
            <p>{`${result.mailed} subscriber${result.mailed === 1 ? " was" : "s were"} e-mailed that picking is open.`}</p>
          </Banner>
        )}
        <InlineStack gap="200">
          <Button onClick={async () => setItems((await pickVariants(items, buildABox)) ?? items)}>Select products</Button>
          {previousItems && <Button onClick={() => setItems(previousItems)}>{`Copy the ${menu.previousPeriod} menu`}</Button>}
          {!published && <Button onClick={() => submit("save")}>Save draft</Button>}
        </InlineStack>
        <MenuItems items={items} buildABox={buildABox} errors={errors} onChange={setItems} />
      </BlockStack>
      <ImpactModal
        impact={impact}
        published={published}
        onClose={() => setImpact(null)}
        onConfirm={() => {
          setImpact(null);
          submit("publish");
        }}
      />
    </Page>
  );
}
