// Create (/app/mixmatch/new) or edit (/app/mixmatch/<id>) a Mix & Match selection
// (docs/decisions/107-mix-match-editor.md). Saving rewrites the app.mix_match metafields at once.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { Page } from "@shopify/polaris";
import { postedForm, UNREADABLE, useCatalogSave } from "../embedded/catalog-form";
import { adminContext } from "../embedded/context.server";
import { MixMatchEditor } from "../embedded/mixmatch-editor";
import { bundleGroupOptions } from "../domain/catalog/bundle-builder.server";
import { mixMatchForm, type MixMatchForm } from "../domain/catalog/mixmatch-builder.server";
import { saveMixMatchForStorefront } from "../domain/storefront/mixmatch-save.server";

const EMPTY: MixMatchForm = { title: "", groupGid: "", minItems: 3, maxItems: 6, categories: [{ title: "", entries: [] }] };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const groups = await bundleGroupOptions(shop.id);
  if (params.id === "new") return json({ id: null, form: EMPTY, groups });
  const form = await mixMatchForm(shop.id, params.id ?? "");
  if (!form) throw new Response("No such selection", { status: 404 });
  return json({ id: params.id!, form, groups });
};

type ActionResult = { ok: true; id: string } | { ok: false; errors: Record<string, string> };

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { shop } = await adminContext(request);
  const input = await postedForm(request);
  if (input === null) return json<ActionResult>(UNREADABLE, 400);
  const id = params.id === "new" ? null : (params.id ?? null);
  // A refusal is the form's answer, not a failed request: 200 keeps the browser console clean.
  return json<ActionResult>(await saveMixMatchForStorefront({ shopId: shop.id, shopDomain: shop.domain }, id, input));
};

export default function MixMatchPage() {
  const { id, form, groups } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { errors, saving, save } = useCatalogSave<ActionResult>("Selection saved", () => navigate("/app/mixmatch"));
  return (
    <Page title={id ? form.title : "Create selection"} backAction={{ content: "Mix & Match", url: "/app/mixmatch" }}>
      <MixMatchEditor key={id ?? "new"} initial={form as MixMatchForm} groups={groups} errors={errors} saving={saving} onSave={save} />
    </Page>
  );
}
