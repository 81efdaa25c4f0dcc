// The Mix & Match form (app/routes/app.mixmatch.$id.tsx; docs/decisions/107-mix-match-editor.md):
// title, the plan it sells under, the bounds of one selection, and categories whose entries come
// from App Bridge's resource picker. Refusals arrive as { "form field path": message }.
import { useState } from "react";
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import type { MixMatchForm } from "../domain/catalog/mixmatch-builder.server";
import { pickVariants } from "./menu-editor";

type FieldErrors = Record<string, string>;
const int = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));
const text = (n: number) => (Number.isNaN(n) ? "" : String(n));

export function MixMatchEditor(props: {
  initial: MixMatchForm;
  groups: { label: string; value: string }[];
  errors: FieldErrors;
  saving: boolean;
  onSave: (f: MixMatchForm) => void;
}) {
  const [form, setForm] = useState<MixMatchForm>(props.initial);
  const { errors } = props;
  const set = (patch: Partial<MixMatchForm>) => setForm((f) => ({ ...f, ...patch }));
  const setCategory = (i: number, patch: Partial<MixMatchForm["categories"][number]>) =>
    set({ categories: form.categories.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  async function pick(i: number) {
    const entries = form.categories[i].entries.map((e) => ({ variantId: e.variantId, title: e.title, maxQuantity: null, fallbackQuantity: 0, quantity: null }));
    const picked = await pickVariants(entries, false);
    if (picked) setCategory(i, { entries: picked.map((p) => ({ variantId: p.variantId, title: p.title })) });
  }
  return (
    <BlockStack gap="400">
      {errors.form && (
        <Banner tone="critical" title="The selection was not saved">
          <p>{errors.form}</p>
        </Banner>
      )}
      <Card>
        <FormLayout>
          <TextField label="Title" value={form.title} onChange={(title) => set({ title })} error={errors.title} autoComplete="off" />
          <Select
            label="Plan"
            options={[{ label: "Choose a plan", value: "" }, ...props.groups]}
            value={form.groupGid}
            onChange={(groupGid) => set({ groupGid })}
            error={errors.groupGid}
          />
          <FormLayout.Group>
            <TextField
              label="Fewest items"
              type="number"
              min={1}
              value={text(form.minItems)}
              onChange={(v) => set({ minItems: int(v) })}
              error={errors.minItems}
              autoComplete="off"
            />
            <TextField
              label="Most items"
              type="number"
              min={1}
              value={text(form.maxItems)}
              onChange={(v) => set({ maxItems: int(v) })}
              error={errors.maxItems}
              autoComplete="off"
            />
          </FormLayout.Group>
        </FormLayout>
      </Card>
      {errors.categories && (
        <Text as="p" tone="critical">
          {errors.categories}
        </Text>
      )}
      {form.categories.map((c, i) => (
        <Card key={i}>
          <BlockStack gap="300">
            <TextField
              label={`Category ${i + 1} name`}
              value={c.title}
              onChange={(title) => setCategory(i, { title })}
              error={errors[`categories.${i}.title`]}
              autoComplete="off"
            />
            {errors[`categories.${i}.entries`] && (
              <Text as="p" tone="critical">
                {errors[`categories.${i}.entries`]}
              </Text>
            )}
            {c.entries.map((e, ei) => (
              <BlockStack key={e.variantId} gap="100">
                <InlineStack align="space-between" blockAlign="center" wrap={false} gap="200">
                  <Text as="span" breakWord>
                    {e.title ?? e.variantId}
                  </Text>
                  <Button
                    variant="plain"
                    tone="critical"
                    accessibilityLabel={`Remove ${e.title ?? e.variantId}`}
                    onClick={() => setCategory(i, { entries: c.entries.filter((_, j) => j !== ei) })}
                  >
                    Remove
                  </Button>
                </InlineStack>
                {errors[`categories.${i}.entries.${ei}`] && (
                  <Text as="p" tone="critical">
                    {errors[`categories.${i}.entries.${ei}`]}
                  </Text>
                )}
              </BlockStack>
            ))}
            <InlineStack gap="200">
              <Button onClick={() => pick(i)} accessibilityLabel={`Select products for category ${i + 1}`}>
                Select products
              </Button>
              {form.categories.length > 1 && (
                <Button variant="plain" tone="critical" onClick={() => set({ categories: form.categories.filter((_, j) => j !== i) })}>
                  {`Remove category ${i + 1}`}
                </Button>
              )}
            </InlineStack>
          </BlockStack>
        </Card>
      ))}
      <InlineStack align="space-between">
        <Button onClick={() => set({ categories: [...form.categories, { title: "", entries: [] }] })}>Add category</Button>
        <Button variant="primary" loading={props.saving} onClick={() => props.onSave(form)}>
          Save selection
        </Button>
      </InlineStack>
    </BlockStack>
  );
}
