// Billing settings: the shop's dunning policy (retry days, then pause or cancel) and renewal
// reminders, stored per shop with defaults (app/domain/renewals/policy.server.ts; decision 081),
// and the contracts in dunning now. The billing engine reads the policy on every outcome.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, Button, FormLayout, InlineStack, Layout, List, Page, Select, Text, TextField } from "@shopify/polaris";
import { adminContext, staffAction } from "../embedded/context.server";
import { useFormat } from "../embedded/shop-format";
import { billingPolicy, DEFAULT_BILLING_POLICY, saveBillingPolicy } from "../domain/renewals/policy.server";
import { dunningOverview } from "../domain/renewals/overview.server";
import { chargeFailureReason } from "../domain/shared/payment-errors";
import { SectionCard } from "../embedded/section-card";
import { refusalTitle, SaveBar, useSettingsForm } from "../embedded/settings-form";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop } = await adminContext(request);
  const [policy, dunning] = await Promise.all([billingPolicy(shop.id), dunningOverview(shop.id)]);
  // The last error in words, never Shopify's code (app/domain/shared/payment-errors.ts).
  const rows = dunning.rows.map(({ lastErrorCode, ...r }) => ({ ...r, lastError: lastErrorCode ? chargeFailureReason(lastErrorCode) : null }));
  return json({ policy, dunning: { ...dunning, rows }, defaults: DEFAULT_BILLING_POLICY });
};

type ActionResult = { ok: true } | { ok: false; errors: Record<string, string> };

/** "1, 3, 7" → [1, 3, 7]; anything that is not a whole number stays as NaN for the schema to refuse. */
const parseDays = (text: string): number[] =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((t) => (/^\d+$/.test(t) ? Number(t) : Number.NaN));

export const action = (args: ActionFunctionArgs) =>
  staffAction(args, async ({ request }: ActionFunctionArgs) => {
    const { shop } = await adminContext(request);
    const form = await request.formData();
    const reminder = String(form.get("reminderDays") ?? "").trim();
    const saved = await saveBillingPolicy(shop.id, {
      retryDays: parseDays(String(form.get("retryDays") ?? "")),
      finalAction: String(form.get("finalAction") ?? ""),
      reminderDays: /^\d+$/.test(reminder) ? Number(reminder) : Number.NaN,
    });
    // A refusal is an answer the page shows on its fields, not a failed request.
    return json<ActionResult>(saved.ok ? { ok: true } : { ok: false, errors: saved.errors });
  });

const FINAL_ACTIONS = [
  { label: "Pause the subscription", value: "PAUSE" },
  { label: "Cancel the subscription", value: "CANCEL" },
];

export default function BillingSettings() {
  const { formatDate, formatDateTime } = useFormat();
  const { policy, dunning, defaults } = useLoaderData<typeof loader>();
  const form = useSettingsForm(
    { retryDays: policy.retryDays.join(", "), finalAction: String(policy.finalAction), reminderDays: String(policy.reminderDays) },
    { savedMessage: "Billing settings saved" },
  );
  const { values, errors } = form;

  return (
    <Page title="Billing settings" subtitle="How renewals are retried when a payment fails, and when customers are reminded.">
      <SaveBar id="billing-settings-save-bar" form={form} />
      <Layout>
        {Object.keys(errors).length > 0 && (
          <Layout.Section>
            <Banner tone="critical" title={refusalTitle(form)}>
              <p>Correct the fields marked below.</p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <SectionCard title="Failed payments">
            <FormLayout>
              <TextField
                label="Retry after (days)"
                name="retryDays"
                value={values.retryDays}
                onChange={form.field("retryDays")}
                autoComplete="off"
                error={errors.retryDays}
                helpText={`Days after the missed charge on which it is tried again, e.g. “${defaults.retryDays.join(", ")}”. Leave empty to never retry.`}
              />
              <Select
                label="When the last retry fails"
                name="finalAction"
                options={FINAL_ACTIONS}
                value={values.finalAction}
                onChange={form.field("finalAction")}
                error={errors.finalAction}
              />
            </FormLayout>
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Renewal reminders">
            <TextField
              label="Days before each charge"
              name="reminderDays"
              type="number"
              min={0}
              value={values.reminderDays}
              onChange={form.field("reminderDays")}
              autoComplete="off"
              error={errors.reminderDays}
              helpText="Customers are reminded (and your renewal reminder webhook is sent) this many days before each charge, once per charge. 0 turns reminders off."
            />
          </SectionCard>
        </Layout.Section>
        <Layout.Section>
          <InlineStack align="end">
            <Button variant="primary" onClick={form.save} loading={form.busy}>
              Save
            </Button>
          </InlineStack>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title={<>In dunning now: {dunning.inDunning}</>}>
            {dunning.rows.length === 0 ? (
              <Text as="p" tone="subdued">
                No subscription is waiting for a payment retry.
              </Text>
            ) : (
              // A list rather than a table: it reflows at phone widths without a scroll region.
              <List>
                {dunning.rows.map((r) => (
                  <List.Item key={`${r.contractId}|${r.cycleAt}`}>
                    Contract {r.contractId.split("/").pop()}: charge due {formatDate(r.cycleAt)}, {r.attempts} {r.attempts === 1 ? "attempt" : "attempts"}.{" "}
                    {r.lastError ?? ""} Next retry {formatDateTime(r.nextRetryAt)}.
                  </List.Item>
                ))}
              </List>
            )}
          </SectionCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
