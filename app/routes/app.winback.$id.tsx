// Create (/app/winback/new) or open (/app/winback/<id>) a win-back campaign: a draft is edited and
// started; an active one paused (docs/decisions/117-winback-campaign-job.md). Results beside it.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { BlockStack, Page } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { WinbackEditor } from "../embedded/winback-editor";
import { ResultsCard, StatusBadge } from "../embedded/winback-results";
import { campaignResults } from "../domain/retention/winback-attribution.server";
import { createCampaign, getCampaign, pauseCampaign, startCampaign, updateCampaign } from "../domain/retention/winback-campaigns.server";
import { CAMPAIGN_DEFAULTS, type CampaignForm, type FieldErrors } from "../domain/retention/winback-form";
import { portalSettings } from "../domain/retention/portal-settings.server";
import { ApiError } from "../infra/errors";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const reasonChoices = (await portalSettings(shop.id)).reasons;
  if (params.id === "new") return json({ id: null, status: "draft", form: CAMPAIGN_DEFAULTS, reasonChoices, results: null });
  const c = await getCampaign(shop.id, params.id ?? "");
  if (!c) throw new Response("No such campaign", { status: 404 });
  const form: CampaignForm = {
    name: c.name,
    offerLabel: c.offerLabel,
    discountPercent: c.discountPercent,
    delayDays: c.delayDays,
    cancelledWithinDays: c.cancelledWithinDays,
    reasons: c.reasons,
    holdoutPercent: c.holdoutPercent,
    attributionDays: c.attributionDays,
  };
  return json({ id: c.id, status: c.status, form, reasonChoices, results: await campaignResults(shop.id, c.id) });
};

type ActionResult = { ok: true; id: string; message: string } | { ok: false; errors: FieldErrors };

export async function action(args: ActionFunctionArgs) {
  return staffAction(args, async ({ request, params }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const body = await request.formData();
    const intent = String(body.get("intent") ?? "save");
    const id = params.id ?? "";
    try {
      if (intent === "start") return json<ActionResult>({ ok: true, id: (await startCampaign(shop.id, id)).id, message: "Campaign started" });
      if (intent === "pause") return json<ActionResult>({ ok: true, id: (await pauseCampaign(shop.id, id)).id, message: "Campaign paused" });
      let input: unknown;
      try {
        input = JSON.parse(String(body.get("form") ?? ""));
      } catch {
        return json<ActionResult>({ ok: false, errors: { form: "The form could not be read." } }, 400);
      }
      const r = id === "new" ? await createCampaign(shop.id, input) : await updateCampaign(shop.id, id, input);
      // A refusal is the form's answer, not a failed request: 200 keeps the browser console clean.
      return json<ActionResult>(r.ok ? { ok: true, id: r.campaign.id, message: "Draft saved" } : r);
    } catch (err) {
      if (err instanceof ApiError && (err.code === "state_conflict" || err.code === "not_found"))
        return json<ActionResult>({ ok: false, errors: { form: err.message } });
      throw err;
    }
  });
}

export default function WinbackCampaignPage() {
  const { id, status, form, reasonChoices, results } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const navigate = useNavigate();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok) {
      (window as { shopify?: { toast?: { show: (m: string) => void } } }).shopify?.toast?.show(result.message);
      if (!id) navigate(`/app/winback/${result.id}`);
    }
  }, [result, navigate, id]);
  const busy = fetcher.state !== "idle";
  const act = (intent: string) => fetcher.submit({ intent }, { method: "post" });
  const primary =
    id && (status === "draft" || status === "paused")
      ? { content: status === "draft" ? "Start campaign" : "Resume campaign", onAction: () => act("start"), loading: busy }
      : id && status === "active"
        ? { content: "Pause campaign", onAction: () => act("pause"), loading: busy, destructive: true }
        : undefined;
  return (
    <Page
      title={id ? form.name : "Create campaign"}
      titleMetadata={id ? <StatusBadge status={status} /> : undefined}
      backAction={{ content: "Win-back campaigns", url: "/app/winback" }}
      primaryAction={primary}
    >
      <BlockStack gap="400">
        {results && <ResultsCard results={results} />}
        <WinbackEditor
          key={`${id ?? "new"}-${status}`}
          initial={form}
          reasonChoices={reasonChoices}
          editable={status === "draft"}
          errors={result && !result.ok ? result.errors : {}}
          saving={busy}
          onSave={(f) => fetcher.submit({ intent: "save", form: JSON.stringify(f) }, { method: "post" })}
        />
      </BlockStack>
    </Page>
  );
}
