// The bundle form of the Bundles page (app/routes/app.bundles.$id.tsx; docs/decisions/105-bundle-builder.md):
// title, kind, the plan group it sells under, the selection cutoff and, for build-a-box, the sizes
// with a price each (a fixed count is a size whose minimum and maximum are equal). Refusals arrive
// as { "form field path": message } and show on that field.
import { useState } from "react";
import { BlockStack, Button, Card, ChoiceList, FormLayout, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import type { BoxSizeForm, BundleForm, FieldErrors } from "../domain/catalog/bundle-form";
import { int, NotSavedBanner, RemovableRow, text, TitleAndPlan } from "./catalog-form";

const KIND_CHOICES = [
  { label: "Build-a-box", value: "BUILD_A_BOX", helpText: "Subscribers pick items from each month's menu." },
  { label: "Curated", value: "CURATED", helpText: "You choose each month's contents." },
  { label: "Regular", value: "REGULAR", helpText: "A bundle of products without menus." },
];

export const newSize = (): BoxSizeForm => ({ label: "", min: 4, max: 4, price: "" });

function SizeCard(props: { index: number; size: BoxSizeForm; errors: FieldErrors; onChange: (s: BoxSizeForm) => void; onRemove?: () => void }) {
  const { index: i, size: s, errors } = props;
  const e = (k: string) => errors[`sizes.${i}.${k}`];
  const fixed = s.min === s.max;
  const set = (patch: Partial<BoxSizeForm>) => props.onChange({ ...s, ...patch });
  return (
    <Card>
      <BlockStack gap="300">
        <RemovableRow name={`Size ${i + 1}`} heading removeLabel={`Remove size ${i + 1}`} onRemove={props.onRemove} />
        <FormLayout>
          <FormLayout.Group>
            <TextField
              label={`Size ${i + 1} name`}
              value={s.label}
              onChange={(label) => set({ label })}
              error={e("label")}
              autoComplete="off"
              placeholder="Small"
            />
            <TextField
              label={`Size ${i + 1} price`}
              value={s.price}
              onChange={(price) => set({ price })}
              error={e("price")}
              autoComplete="off"
              inputMode="decimal"
            />
          </FormLayout.Group>
          <ChoiceList
            title={`Size ${i + 1} item count`}
            choices={[
              { label: "A fixed number of items", value: "fixed" },
              { label: "Between a minimum and a maximum", value: "range" },
            ]}
            selected={[fixed ? "fixed" : "range"]}
            onChange={([v]) => set(v === "fixed" ? { max: s.min } : { max: s.min + 2 })}
          />
          {fixed ? (
            <TextField
              label={`Size ${i + 1} items`}
              type="number"
              min={1}
              value={text(s.min)}
              onChange={(v) => set({ min: int(v), max: int(v) })}
              error={e("min") ?? e("max")}
              autoComplete="off"
            />
          ) : (
            <FormLayout.Group>
              <TextField
                label={`Size ${i + 1} minimum items`}
                type="number"
                min={1}
                value={text(s.min)}
                onChange={(v) => set({ min: int(v) })}
                error={e("min")}
                autoComplete="off"
              />
              <TextField
                label={`Size ${i + 1} maximum items`}
                type="number"
                min={1}
                value={text(s.max)}
                onChange={(v) => set({ max: int(v) })}
                error={e("max")}
                autoComplete="off"
              />
            </FormLayout.Group>
          )}
        </FormLayout>
      </BlockStack>
    </Card>
  );
}

export function BundleEditor(props: {
  initial: BundleForm;
  isNew: boolean;
  groups: { label: string; value: string }[];
  errors: FieldErrors;
  saving: boolean;
  onSave: (f: BundleForm) => void;
}) {
  const [form, setForm] = useState<BundleForm>(props.initial);
  const { errors } = props;
  const set = (patch: Partial<BundleForm>) => setForm((f) => ({ ...f, ...patch }));
  const box = form.kind === "BUILD_A_BOX";
  return (
    <BlockStack gap="400">
      <NotSavedBanner what="bundle" errors={errors} />
      <Card>
        <FormLayout>
          <TitleAndPlan
            title={form.title}
            groupGid={form.groupGid}
            groups={props.groups}
            errors={errors}
            planHelp="The subscription plan the bundle is sold under."
            onChange={set}
          />
          {props.isNew ? (
            <ChoiceList
              title="Kind"
              choices={KIND_CHOICES}
              selected={[form.kind]}
              onChange={([kind]) => set({ kind: kind as BundleForm["kind"] })}
              error={errors.kind}
            />
          ) : (
            <Text as="p">{`Kind: ${KIND_CHOICES.find((k) => k.value === form.kind)?.label}`}</Text>
          )}
          {box && (
            <TextField
              label="Selection cutoff (days before the charge)"
              type="number"
              min={0}
              value={text(form.selectionCutoffDays)}
              onChange={(v) => set({ selectionCutoffDays: int(v) })}
              error={errors.selectionCutoffDays}
              autoComplete="off"
              helpText="After this, the subscriber's pick (or the fallback box) is applied to their subscription."
            />
          )}
        </FormLayout>
      </Card>
      {box && (
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Box sizes
          </Text>
          {errors.sizes && (
            <Text as="p" tone="critical">
              {errors.sizes}
            </Text>
          )}
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            {form.sizes.map((s, i) => (
              <SizeCard
                key={i}
                index={i}
                size={s}
                errors={errors}
                onChange={(size) => set({ sizes: form.sizes.map((x, j) => (j === i ? size : x)) })}
                onRemove={form.sizes.length > 1 ? () => set({ sizes: form.sizes.filter((_, j) => j !== i) }) : undefined}
              />
            ))}
          </InlineGrid>
          <InlineStack>
            <Button onClick={() => set({ sizes: [...form.sizes, newSize()] })}>Add size</Button>
          </InlineStack>
        </BlockStack>
      )}
      <InlineStack align="end">
        <Button variant="primary" loading={props.saving} onClick={() => props.onSave(form)}>
          Save bundle
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
