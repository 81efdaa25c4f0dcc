// metafieldsSet: the types Shopify accepts and the values each type takes.
import { newGid, type ShopState, type SimState, type Outcome } from "../state";

import { ok, refuse } from "./outcome";

const METAFIELD_TYPES = new Set([
  "single_line_text_field",
  "multi_line_text_field",
  "json",
  "boolean",
  "number_integer",
  "number_decimal",
  "date",
  "date_time",
  "url",
  "color",
  "product_reference",
  "variant_reference",
  "list.product_reference",
  "list.variant_reference",
  "list.single_line_text_field",
]);

function validMetafieldValue(type: string, value: string): boolean {
  try {
    if (type === "json" || type.startsWith("list.")) return JSON.parse(value) !== undefined;
  } catch {
    return false;
  }
  if (type === "boolean") return value === "true" || value === "false";
  if (type === "number_integer") return /^-?\d+$/.test(value);
  if (type === "number_decimal") return /^-?\d+(\.\d+)?$/.test(value);
  return true;
}

export interface MetafieldInputRaw {
  ownerId?: unknown;
  namespace?: unknown;
  key?: unknown;
  type?: unknown;
  value?: unknown;
}

export function setMetafields(state: SimState, shop: ShopState, inputs: unknown, now: Date): Outcome<{ id: string; namespace: string; key: string }[]> {
  if (!Array.isArray(inputs) || inputs.length === 0) return refuse("Metafields are required", ["metafields"], "BLANK");
  if (inputs.length > 25) return refuse("Exceeded the maximum metafields input limit of 25", ["metafields"], "LESS_THAN_OR_EQUAL_TO");
  // All or nothing: validate every input first.
  for (const [i, raw] of (inputs as MetafieldInputRaw[]).entries()) {
    const at = (f: string) => ["metafields", String(i), f];
    if (typeof raw.ownerId !== "string" || !raw.ownerId.startsWith("gid://shopify/")) return refuse("Owner id is invalid", at("ownerId"));
    if (typeof raw.namespace !== "string" || raw.namespace.length < 2 || raw.namespace.length > 255) return refuse("Namespace is invalid", at("namespace"));
    if (typeof raw.key !== "string" || raw.key.length < 2 || raw.key.length > 64) return refuse("Key is invalid", at("key"));
    if (typeof raw.type !== "string" || !METAFIELD_TYPES.has(raw.type)) return refuse(`Type ${String(raw.type)} is not supported`, at("type"));
    if (typeof raw.value !== "string" || !validMetafieldValue(raw.type, raw.value)) return refuse(`Value is invalid for type ${raw.type}`, at("value"));
  }
  const out = (inputs as Required<{ [K in keyof MetafieldInputRaw]: string }>[]).map((m) => {
    const storeKey = `${m.ownerId}|${m.namespace}|${m.key}`;
    const existing = shop.metafields[storeKey];
    const id = existing?.id ?? newGid(state, "Metafield");
    shop.metafields[storeKey] = { id, ownerId: m.ownerId, namespace: m.namespace, key: m.key, type: m.type, value: m.value, updatedAt: now.toISOString() };
    return { id, namespace: m.namespace, key: m.key };
  });
  return ok(out);
}
