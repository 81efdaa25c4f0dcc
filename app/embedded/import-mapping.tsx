// The Import page's mapping step (docs/decisions/151-import-presets.md): which app the file came
// from (a preset fills the mapping by that app's column names), then one choice per field of
// this app's migration format, the required ones first. The server rewrites the file with it.
import { useState } from "react";
import { BlockStack, Button, InlineGrid, Select, Text, TextField } from "@shopify/polaris";
import { SectionCard } from "./section-card";

export interface MappingChoices {
  presets: { id: string; name: string }[];
  fields: { field: string; label: string; required: boolean }[];
}

export interface MappingState {
  preset: string;
  mapping: Record<string, string>;
  currency: string;
}

export function ImportMapping(props: {
  header: string[];
  choices: MappingChoices;
  mappings: Record<string, Record<string, string>>;
  value: MappingState;
  onChange: (next: MappingState) => void;
}) {
  const { header, choices, mappings, value, onChange } = props;
  const [showOptional, setShowOptional] = useState(false);
  const options = [{ label: "Not in the file", value: "" }, ...header.map((h) => ({ label: h, value: h }))];
  const required = choices.fields.filter((f) => f.required);
  const optional = choices.fields.filter((f) => !f.required);
  const mappedOptional = optional.filter((f) => value.mapping[f.field]).length;
  const missing = required.filter((f) => !value.mapping[f.field] && !(f.field === "currency" && value.currency.trim()));
  const set = (field: string, column: string) => {
    const mapping = { ...value.mapping };
    if (column) mapping[field] = column;
    else delete mapping[field];
    onChange({ ...value, mapping });
  };
  const field = (f: MappingChoices["fields"][number]) => (
    <Select key={f.field} label={f.label} options={options} value={value.mapping[f.field] ?? ""} onChange={(c) => set(f.field, c)} />
  );

  return (
    <SectionCard title="Match the columns">
      <Text as="p" tone="subdued">
        Choose the app the file was exported from: its columns are matched for you. Check each field below and change any that is wrong.
      </Text>
      <Select
        label="Exported from"
        options={choices.presets.map((p) => ({ label: p.name, value: p.id }))}
        value={value.preset}
        onChange={(preset) => onChange({ ...value, preset, mapping: { ...(mappings[preset] ?? {}) } })}
      />
      <Text as="h3" variant="headingSm">
        Required
      </Text>
      <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
        {required.map(field)}
      </InlineGrid>
      {!value.mapping.currency && (
        <TextField
          label="Currency of every subscription"
          value={value.currency}
          onChange={(currency) => onChange({ ...value, currency })}
          autoComplete="off"
          maxLength={3}
          helpText="The file has no currency column: the three-letter code, such as USD."
        />
      )}
      {missing.length > 0 && (
        <Text as="p" tone="critical">
          {`Still to choose: ${missing.map((f) => f.label).join(", ")}.`}
        </Text>
      )}
      <BlockStack gap="200" inlineAlign="start">
        <Button variant="plain" onClick={() => setShowOptional((s) => !s)} ariaExpanded={showOptional} ariaControls="optional-columns">
          {showOptional ? "Hide optional columns" : `Show optional columns (${mappedOptional} matched)`}
        </Button>
      </BlockStack>
      {showOptional && (
        <div id="optional-columns">
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            {optional.map(field)}
          </InlineGrid>
        </div>
      )}
    </SectionCard>
  );
}
