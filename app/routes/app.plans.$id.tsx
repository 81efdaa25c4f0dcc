// Create (/app/plans/new) or edit (/app/plans/<number>) a plan group (docs/decisions/111-selling-plan-writes.md).
// The form is app/embedded/plan-editor.tsx; saving calls the plan builder, whose Shopify refusals
// come back keyed by form field.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { Page } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { newOption, PlanEditor } from "../embedded/plan-editor";
import { createPlanGroup, planGroupForm, updatePlanGroup } from "../domain/catalog/plan-builder.server";
import { shopTimeZone } from "../domain/catalog/selling-plans.server";
import type { FieldErrors, PlanGroupForm } from "../domain/catalog/plan-form";
import { civilIso, localDate } from "../domain/shared/schedule";

const groupGidOf = (id: string | undefined) => (id && /^\d{1,20}$/.test(id) ? `gid://shopify/SellingPlanGroup/${id}` : null);

const EMPTY: PlanGroupForm = {
  name: "",
  merchantCode: "",
  productIds: [],
  variantIds: [],
  schedule: { mode: "anchored", anchorDay: 15, anchorMonths: [], cutoffDays: 3, preAnchorBehavior: "NEXT", shipDay: null },
  plans: [newOption()],
};

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const timeZone = await shopTimeZone(shop.id);
  const today = civilIso(localDate(new Date(), timeZone));
  if (params.id === "new") return json({ groupGid: null, form: EMPTY, timeZone, today });
  const groupGid = groupGidOf(params.id);
  const form = groupGid ? await planGroupForm(shop.id, groupGid) : null;
  if (!groupGid || !form) throw new Response("No such plan", { status: 404 });
  return json({ groupGid, form, timeZone, today });
};

type ActionResult = { ok: true; groupGid: string } | { ok: false; errors: FieldErrors };

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request, params }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const body = await request.formData();
    let input: unknown;
    try {
      input = JSON.parse(String(body.get("form") ?? ""));
    } catch {
      return json<ActionResult>({ ok: false, errors: { form: "The form could not be read." } }, 400);
    }
    const ctx = { shopId: shop.id, shopDomain: shop.domain };
    const groupGid = groupGidOf(params.id);
    const r = params.id === "new" ? await createPlanGroup(ctx, input) : groupGid ? await updatePlanGroup(ctx, groupGid, input) : null;
    if (!r) return json<ActionResult>({ ok: false, errors: { form: "No such plan." } }, 404);
    // A refusal is the form's answer, not a failed request: 200 keeps the browser console clean.
    return json<ActionResult>(r);
  });

export default function PlanPage() {
  const { groupGid, form, timeZone, today } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const navigate = useNavigate();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok) {
      (window as { shopify?: { toast?: { show: (m: string) => void } } }).shopify?.toast?.show("Plan saved");
      navigate("/app/plans");
    }
  }, [result, navigate]);
  const save = (f: PlanGroupForm) => fetcher.submit({ form: JSON.stringify(f) }, { method: "post" });
  return (
    <Page title={groupGid ? `Edit ${form.name}` : "Create plan"} backAction={{ content: "Plans", url: "/app/plans" }}>
      <PlanEditor
        key={groupGid ?? "new"}
        initial={form as PlanGroupForm}
        errors={result && !result.ok ? result.errors : {}}
        saving={fetcher.state !== "idle"}
        timeZone={timeZone}
        today={today}
        onSave={save}
      />
    </Page>
  );
}
