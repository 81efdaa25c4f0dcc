// The Mix & Match form (app/routes/app.mixmatch.$id.tsx; docs/decisions/107-mix-match-editor.md):
// title, the plan it sells under, the bounds of one selection, and categories whose entries come
// from App Bridge's resource picker. Refusals arrive as { "form field path": message }.
import { useState } from "react";
import { BlockStack, Button, Card, FormLayout, InlineStack, Text, TextField } from "@shopify/polaris";
import type { FieldErrors } from "../domain/catalog/bundle-form";
import type { MixMatchForm } from "../domain/catalog/mixmatch-builder.server";
import { int, NotSavedBanner, RemovableRow, text, TitleAndPlan } from "./catalog-form";
import { pickVariants } from "./menu-editor";

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
      <NotSavedBanner what="selection" errors={errors} />
      <Card>
        <FormLayout>
          <TitleAndPlan title={form.title} groupGid={form.groupGid} groups={props.groups} errors={errors} onChange={set} />
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
                <RemovableRow
                  name={e.title ?? e.variantId}
                  error={errors[`categories.${i}.entries.${ei}`]}
                  onRemove={() => setCategory(i, { entries: c.entries.filter((_, j) => j !== ei) })}
                />
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
