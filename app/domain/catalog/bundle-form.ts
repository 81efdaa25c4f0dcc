// The Bundles page's two forms (docs/decisions/105-bundle-builder.md): a bundle (kind, plan group,
// cutoff, build-a-box sizes) and a period's menu (variants, per-item limits, fallback contents).
// Shared by the page and the domain, so it holds no server code. Refusals come back as
// { "form field path": message }, shown on that field.
import { z } from "zod";

export const BUNDLE_KINDS = ["BUILD_A_BOX", "CURATED", "REGULAR"] as const;
export type BundleKindForm = (typeof BUNDLE_KINDS)[number];

export const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
const decimal = z.string().regex(/^\d{1,7}(\.\d{1,3})?$/, "Enter a price like 29.00");

export const BoxSizeForm = z.object({
  label: z.string().trim().min(1, "Name the size").max(60),
  min: z.number().int("Whole items only").min(1, "At least 1 item"),
  max: z.number().int("Whole items only").min(1, "At least 1 item").max(100, "At most 100 items"),
  price: decimal,
});

export const BundleForm = z.object({
  title: z.string().trim().min(1, "Give the bundle a title").max(120, "At most 120 characters"),
  kind: z.enum(BUNDLE_KINDS),
  groupGid: z.string().min(1, "Choose the plan the bundle sells under"),
  selectionCutoffDays: z.number().int("Whole days only").min(0, "0 days or more").max(366, "At most 366 days"),
  sizes: z.array(BoxSizeForm).max(10, "At most 10 sizes"),
});

export const MenuItemForm = z.object({
  variantId: z.string().min(1),
  /** Shown while editing; the saved title is always Shopify's. */
  title: z.string().optional(),
  /** Build-a-box: at most this many of the item in one pick (null: no limit of its own). */
  maxQuantity: z.number().int("Whole items only").min(1, "At least 1").nullable(),
  /** Build-a-box: how many the fallback box holds (0: not in it). */
  fallbackQuantity: z.number().int("Whole items only").min(0, "0 or more"),
  /** Curated: the fixed quantity in the box. */
  quantity: z.number().int("Whole items only").min(1, "At least 1").nullable(),
});

export const MenuForm = z.object({
  period: z.string().regex(PERIOD, "A month as YYYY-MM"),
  items: z.array(MenuItemForm).max(100, "At most 100 items"),
});

export type BoxSizeForm = z.infer<typeof BoxSizeForm>;
export type BundleForm = z.infer<typeof BundleForm>;
export type MenuItemForm = z.infer<typeof MenuItemForm>;
export type MenuForm = z.infer<typeof MenuForm>;
export type FieldErrors = Record<string, string>;

/** The first zod message per field path. */
export function zodErrors(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[issue.path.map(String).join(".") || "form"] ??= issue.message;
  return errors;
}

/** The shortest length of a billing interval in days: a cutoff must fit inside one cycle. */
export function shortestIntervalDays(interval: string, count: number): number {
  const per = interval === "DAY" ? 1 : interval === "WEEK" ? 7 : interval === "YEAR" ? 365 : 28;
  return per * Math.max(1, count);
}

/** How a size's name is compared: the name a cart line carries matches whatever its case and spacing. */
export const sizeKey = (label: string) => label.trim().toLowerCase();

/** The outer bounds of the sizes: what a pick is checked against when the contract names no size (docs/decisions/167). */
export function sizeBounds(sizes: readonly { min: number; max: number }[]): { min: number | null; max: number | null } {
  if (!sizes.length) return { min: null, max: null };
  return { min: Math.min(...sizes.map((s) => s.min)), max: Math.max(...sizes.map((s) => s.max)) };
}

/** The form's own checks of a bundle (before the database's); the group and its interval are checked by the domain. */
export function checkBundleForm(input: unknown): { form: BundleForm; errors: null } | { form: null; errors: FieldErrors } {
  const r = BundleForm.safeParse(input);
  if (!r.success) return { form: null, errors: zodErrors(r.error.issues) };
  const form = r.data;
  const errors: FieldErrors = {};
  if (form.kind === "BUILD_A_BOX") {
    if (!form.sizes.length) errors.sizes = "Add at least one box size";
    // A subscriber's size is named on their contract (docs/decisions/167-box-size-on-the-line.md): two
    // sizes of one name could not be told apart.
    const names = new Set<string>();
    form.sizes.forEach((s, i) => {
      if (s.min > s.max) errors[`sizes.${i}.max`] = "The maximum is below the minimum";
      const name = sizeKey(s.label);
      if (names.has(name)) errors[`sizes.${i}.label`] = "Another size has this name";
      names.add(name);
    });
  }
  return Object.keys(errors).length ? { form: null, errors } : { form, errors: null };
}

/** Next month of a YYYY-MM period. */
export function nextPeriod(period: string): string {
  const [y, m] = period.split("-").map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}
