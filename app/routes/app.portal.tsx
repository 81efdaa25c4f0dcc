// Portal settings (docs/decisions/113-portal-settings.md): the reschedule window, the cancel flow
// and the HIDE list that the Customer API's GET /config answers and customer portals obey. Saved
// as one object; GET /config reads the same row, so a portal follows on its next load.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Checkbox, ChoiceList, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { adminContext } from "../embedded/context.server";
import { SectionCard } from "../embedded/section-card";
import { refusalTitle, SaveBar, useSettingsForm } from "../embedded/settings-form";
import { PORTAL_LIMITS, portalSettings, savePortalSettings } from "../domain/retention/portal-settings.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  // The limits travel with the data: a .server module's constants do not reach the browser bundle.
  return json({ settings: await portalSettings(shop.id), limits: PORTAL_LIMITS });
};

type ActionResult = { ok: true } | { ok: false; errors: Record<string, string> };

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await adminContext(request);
  const form = await request.formData();
  const months = String(form.get("rescheduleMaxMonths") ?? "").trim();
  const saved = await savePortalSettings(shop.id, {
    rescheduleMaxMonths: /^\d+$/.test(months) ? Number(months) : Number.NaN,
    offerPause: form.get("offerPause") === "true",
    offerSkip: form.get("offerSkip") === "true",
    showReasonSurvey: form.get("showReasonSurvey") === "true",
    reasons: String(form.get("reasons") ?? "")
      .split("\n")
      .map((r) => r.trim())
      .filter(Boolean),
    hiddenActions: form.getAll("hiddenActions").map(String),
  });
  return json<ActionResult>(saved.ok ? { ok: true } : { ok: false, errors: saved.errors });
};

const ACTION_CHOICES = [
  { label: "Skip a delivery", value: "skip" },
  { label: "Pause", value: "pause" },
  { label: "Cancel", value: "cancel" },
  { label: "Edit the address", value: "edit_address" },
  { label: "Change the quantity", value: "edit_quantity" },
  { label: "Swap the product", value: "swap_product" },
  { label: "Change the next charge date", value: "change_date" },
];

export default function PortalSettingsPage() {
  const { settings, limits } = useLoaderData<typeof loader>();
  const form = useSettingsForm(
    {
      rescheduleMaxMonths: String(settings.rescheduleMaxMonths),
      offerPause: settings.offerPause,
      offerSkip: settings.offerSkip,
      showReasonSurvey: settings.showReasonSurvey,
      reasons: settings.reasons.join("\n"),
      hiddenActions: settings.hiddenActions as string[],
    },
    { savedMessage: "Portal settings saved" },
  );
  const { values, errors } = form;

  return (
    <Page title="Portal settings" subtitle="What customers can do in their subscription portal, and what the cancel flow offers before they leave.">
      <SaveBar id="portal-settings-save-bar" form={form} />
      <Layout>
        {Object.keys(errors).length > 0 && (
          <Layout.Section>
            <Banner tone="critical" title={refusalTitle(form)}>
              <p>Correct the fields marked below.</p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <SectionCard title="Rescheduling">
            <TextField
              label="Reschedule window (months)"
              type="number"
              min={limits.minMonths}
              max={limits.maxMonths}
              value={values.rescheduleMaxMonths}
              onChange={form.field("rescheduleMaxMonths")}
              autoComplete="off"
              error={errors.rescheduleMaxMonths}
              helpText={`How far ahead a customer may move the next charge: ${limits.minMonths} to ${limits.maxMonths} months. The Customer API checks every new date against it.`}
            />
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Cancel flow">
            <FormLayout>
              <Checkbox label="Offer a pause instead of cancelling" checked={values.offerPause} onChange={form.field("offerPause")} />
              <Checkbox label="Offer to skip the next delivery instead of cancelling" checked={values.offerSkip} onChange={form.field("offerSkip")} />
              <Checkbox label="Ask for a reason (survey)" checked={values.showReasonSurvey} onChange={form.field("showReasonSurvey")} />
              <TextField
                label="Cancellation reasons"
                multiline={4}
                value={values.reasons}
                onChange={form.field("reasons")}
                autoComplete="off"
                error={errors.reasons}
                helpText={`One per line, in the order the survey lists them; at most ${limits.maxReasons}, each up to ${limits.maxReasonLength} characters.`}
              />
            </FormLayout>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Hidden portal actions">
            <BlockStack gap="300">
              <Banner tone="warning" title="Hiding a button does not forbid the action">
                <BlockStack gap="200">
                  <Text as="p">
                    This list only hides buttons in portals that read it. A customer&apos;s own Shopify customer account can still pause, skip or cancel a
                    subscription at Shopify, whatever you hide here.
                  </Text>
                  <Text as="p">Some jurisdictions require that customers can cancel online: check the rules where you sell before you hide Cancel.</Text>
                </BlockStack>
              </Banner>
              <ChoiceList
                allowMultiple
                title="Hide these actions in the portal"
                choices={ACTION_CHOICES}
                selected={values.hiddenActions}
                onChange={form.field("hiddenActions")}
                error={errors.hiddenActions}
              />
            </BlockStack>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <InlineStack align="end">
            <Button variant="primary" onClick={form.save} loading={form.busy}>
              Save
            </Button>
          </InlineStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
