// The win-back campaign form (app/routes/app.winback.$id.tsx; docs/decisions/117-winback-campaign-job.md).
// Read-only once the campaign has started: its ledger was decided by these rules.
import { useState } from "react";
import { BlockStack, Button, Card, ChoiceList, FormLayout, InlineGrid, Text, TextField } from "@shopify/polaris";
import type { CampaignForm, FieldErrors } from "../domain/retention/winback-form";

const int = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));

export function WinbackEditor(props: {
  initial: CampaignForm;
  reasonChoices: string[];
  editable: boolean;
  errors: FieldErrors;
  saving: boolean;
  onSave: (f: CampaignForm) => void;
}) {
  const [f, setF] = useState(props.initial);
  const [percent, setPercent] = useState(props.initial.discountPercent === null ? "" : String(props.initial.discountPercent));
  const set = <K extends keyof CampaignForm>(k: K, v: CampaignForm[K]) => setF((x) => ({ ...x, [k]: v }));
  const num = (k: "delayDays" | "cancelledWithinDays" | "holdoutPercent" | "attributionDays", label: string, help: string, suffix: string) => (
    <TextField
      label={label}
      type="number"
      value={Number.isNaN(f[k]) ? "" : String(f[k])}
      onChange={(v) => set(k, int(v))}
      suffix={suffix}
      helpText={help}
      error={props.errors[k]}
      disabled={!props.editable}
      autoComplete="off"
    />
  );
  const choices = [...new Set([...props.reasonChoices, ...f.reasons])];
  const save = () => props.onSave({ ...f, discountPercent: percent.trim() === "" ? null : int(percent) });
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Campaign
        </Text>
        <FormLayout>
          <TextField label="Name" value={f.name} onChange={(v) => set("name", v)} error={props.errors.name} disabled={!props.editable} autoComplete="off" />
          <TextField
            label="Offer"
            value={f.offerLabel}
            onChange={(v) => set("offerLabel", v)}
            helpText="What the e-mail offers, in a sentence."
            error={props.errors.offerLabel}
            disabled={!props.editable}
            autoComplete="off"
          />
          <TextField
            label="Discount code"
            type="number"
            value={percent}
            onChange={setPercent}
            suffix="% off"
            helpText="Each customer gets a single-use code of their own, made in Shopify. Leave empty for no code."
            error={props.errors.discountPercent}
            disabled={!props.editable}
            autoComplete="off"
          />
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
            {num("cancelledWithinDays", "Cancelled within", "Only customers who cancelled at most this long ago.", "days")}
            {num("delayDays", "Wait before sending", "Days after the cancellation.", "days")}
            {num("holdoutPercent", "Hold-out", "A random share of the audience is never sent to, to measure what the e-mail adds (0–50%).", "%")}
            {num("attributionDays", "Attribution window", "A new subscription within this many days of the e-mail counts, with its charges.", "days")}
          </InlineGrid>
          <ChoiceList
            title="Cancel reasons (none chosen: any reason)"
            allowMultiple
            choices={choices.map((r) => ({ label: r, value: r }))}
            selected={f.reasons}
            onChange={(v) => set("reasons", v)}
            error={props.errors.reasons}
            disabled={!props.editable}
          />
          <Text as="p" tone="subdued">
            Only customers whose e-mail marketing consent in Shopify is subscribed are sent to, never an address on your suppression list, and never anyone
            twice.
          </Text>
          {props.errors.form && (
            <Text as="p" tone="critical">
              {props.errors.form}
            </Text>
          )}
        </FormLayout>
        {props.editable && (
          <Button variant="primary" onClick={save} loading={props.saving}>
            Save draft
          </Button>
        )}
      </BlockStack>
    </Card>
  );
}
