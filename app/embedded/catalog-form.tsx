// What the Bundles and Mix & Match forms share (docs/decisions/105-bundle-builder.md,
// docs/decisions/107-mix-match-editor.md): the form posted as one JSON field and its refusals as
// { "form field path": message }, the save that toasts, the "not saved" banner, the title and plan
// fields, and a named row with its Remove button and its own refusal.
import { useEffect } from "react";
import { useFetcher } from "@remix-run/react";
import { Banner, Button, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import type { FieldErrors } from "../domain/catalog/bundle-form";

/** A number field's value: NaN while empty, so the form's own check names the field. */
export const int = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));
export const text = (n: number | null) => (n === null || Number.isNaN(n) ? "" : String(n));

/** The action's input: the `form` field's JSON, or null when it cannot be read. */
export async function postedForm(request: Request): Promise<unknown> {
  try {
    return JSON.parse(String((await request.formData()).get("form") ?? ""));
  } catch {
    return null;
  }
}

export const UNREADABLE = { ok: false as const, errors: { form: "The form could not be read." } };

/**
 * The page's save: posts the form as JSON; once the answer is ok, shows `toast` and calls `onSaved`.
 * A refusal's messages are `errors`, by field path.
 */
export function useCatalogSave<R extends { ok: true } | { ok: false; errors: FieldErrors }>(toast: string, onSaved: (r: R) => void) {
  const fetcher = useFetcher<R>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result?.ok) return;
    (window as { shopify?: { toast?: { show: (m: string) => void } } }).shopify?.toast?.show(toast);
    onSaved(result as R);
    // Only a new answer saves: onSaved is the page's callback of this render.
  }, [result]);
  return {
    errors: result && !result.ok ? (result as { errors: FieldErrors }).errors : {},
    saving: fetcher.state !== "idle",
    save: (form: unknown) => fetcher.submit({ form: JSON.stringify(form) }, { method: "post" }),
  };
}

export function NotSavedBanner(props: { what: string; errors: FieldErrors }) {
  if (!props.errors.form) return null;
  return (
    <Banner tone="critical" title={`The ${props.what} was not saved`}>
      <p>{props.errors.form}</p>
    </Banner>
  );
}

/** The title and the plan group the bundle or selection sells under. */
export function TitleAndPlan(props: {
  title: string;
  groupGid: string;
  groups: { label: string; value: string }[];
  errors: FieldErrors;
  planHelp?: string;
  onChange: (patch: { title?: string; groupGid?: string }) => void;
}) {
  return (
    <>
      <TextField label="Title" value={props.title} onChange={(title) => props.onChange({ title })} error={props.errors.title} autoComplete="off" />
      <Select
        label="Plan"
        options={[{ label: "Choose a plan", value: "" }, ...props.groups]}
        value={props.groupGid}
        onChange={(groupGid) => props.onChange({ groupGid })}
        error={props.errors.groupGid}
        helpText={props.planHelp}
      />
    </>
  );
}

/** A named row (a heading when `heading`) with its Remove button, and the refusal of what it names. */
export function RemovableRow(props: { name: string; heading?: boolean; removeLabel?: string; error?: string; onRemove?: () => void }) {
  return (
    <>
      <InlineStack align="space-between" blockAlign="center" wrap={false} gap="200">
        {props.heading ? (
          <Text as="h3" variant="headingSm" breakWord>
            {props.name}
          </Text>
        ) : (
          <Text as="span" breakWord>
            {props.name}
          </Text>
        )}
        {props.onRemove && (
          <Button variant="plain" tone="critical" onClick={props.onRemove} accessibilityLabel={props.removeLabel ?? `Remove ${props.name}`}>
            Remove
          </Button>
        )}
      </InlineStack>
      {props.error && (
        <Text as="p" tone="critical">
          {props.error}
        </Text>
      )}
    </>
  );
}
