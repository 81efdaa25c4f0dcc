// One settings form's edit-and-save cycle, for every settings page (Billing, Portal,
// Notifications, Storefront access; docs/decisions/131-save-bar.md): the values being edited
// beside the values last saved, App Bridge's save bar while they differ (Save and Discard there),
// a question before leaving with unsaved edits, the answer's field errors, and a toast on success.
// The action answers `{ ok: true }` or `{ ok: false, errors: { field: "words" }, error? }`.
import { useCallback, useEffect, useState } from "react";
import { useBlocker, useFetcher } from "@remix-run/react";

export type FormValue = string | boolean | string[];
export type SettingsResult = { ok: boolean; intent?: string; error?: string; errors?: Record<string, string> };

const same = (a: Record<string, FormValue>, b: Record<string, FormValue>) => JSON.stringify(a) === JSON.stringify(b);

export interface SettingsForm<T extends Record<string, FormValue>> {
  values: T;
  field: <K extends keyof T>(key: K) => (value: T[K]) => void;
  save: () => void;
  discard: () => void;
  dirty: boolean;
  busy: boolean;
  /** Field name → what is wrong, in words; `form` for the whole form. */
  errors: Record<string, string>;
  /** The refusal's title when the action gave one. */
  error: string | null;
}

export function useSettingsForm<T extends Record<string, FormValue>>(
  initial: T,
  opts: { savedMessage: string; intent?: string; action?: string },
): SettingsForm<T> {
  const fetcher = useFetcher<SettingsResult>();
  const [values, setValues] = useState<T>(initial);
  const [saved, setSaved] = useState<T>(initial);
  const [pending, setPending] = useState<T | null>(null);
  const result = fetcher.state === "idle" && fetcher.data && (!opts.intent || fetcher.data.intent === opts.intent) ? fetcher.data : undefined;

  useEffect(() => {
    if (!result || !pending) return;
    if (result.ok) {
      setSaved(pending);
      window.shopify?.toast.show(opts.savedMessage);
    }
    setPending(null);
  }, [result, pending, opts.savedMessage]);

  const field = useCallback(
    <K extends keyof T>(key: K) =>
      (value: T[K]) =>
        setValues((v) => ({ ...v, [key]: value })),
    [],
  );
  const save = () => {
    const form = new FormData();
    if (opts.intent) form.set("intent", opts.intent);
    for (const [k, v] of Object.entries(values)) {
      if (Array.isArray(v)) for (const item of v) form.append(k, item);
      else form.set(k, String(v));
    }
    setPending(values);
    fetcher.submit(form, { method: "post", ...(opts.action ? { action: opts.action } : {}) });
  };
  return {
    values,
    field,
    save,
    discard: () => setValues(saved),
    dirty: !same(values, saved),
    busy: fetcher.state !== "idle",
    errors: result && !result.ok ? (result.errors ?? {}) : {},
    error: result && !result.ok ? (result.error ?? null) : null,
  };
}

/**
 * App Bridge's save bar for a form (`<ui-save-bar>`, shown while the form has unsaved edits), and
 * a question before an in-app link leaves them: `shopify.saveBar.leaveConfirmation()` resolves
 * once the merchant chose to leave. Admin itself asks when its navigation is used.
 */
export function SaveBar({ id, form }: { id: string; form: Pick<SettingsForm<Record<string, FormValue>>, "dirty" | "busy" | "save" | "discard"> }) {
  useEffect(() => {
    const bar = window.shopify?.saveBar;
    if (!bar) return;
    void (form.dirty ? bar.show(id) : bar.hide(id));
  }, [form.dirty, id]);
  useEffect(() => () => void window.shopify?.saveBar?.hide(id), [id]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => form.dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    const confirm = window.shopify?.saveBar?.leaveConfirmation;
    if (!confirm) return blocker.proceed();
    void confirm().then(() => blocker.proceed());
  }, [blocker]);

  return (
    <ui-save-bar id={id}>
      <button {...saveAttributes(form.busy)} onClick={form.save} type="button">
        Save
      </button>
      <button onClick={form.discard} disabled={form.busy} type="button">
        Discard
      </button>
    </ui-save-bar>
  );
}

/** App Bridge's attributes on the Save button (not HTML's, so spread rather than typed props). */
const saveAttributes = (busy: boolean): Record<string, string> => (busy ? { variant: "primary", loading: "" } : { variant: "primary" });

/** A refusal's banner text: the action's own words, else the usual instruction. */
export const refusalTitle = (form: { error: string | null }) => form.error ?? "The settings were not saved";
