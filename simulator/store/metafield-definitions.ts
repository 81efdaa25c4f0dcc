// metafieldDefinitionCreate / metafieldDefinitionUpdate: the definitions that decide who reads a
// metafield, and the Storefront API's view of a product's metafields through them. As on Shopify:
// `$app` (or `$app:<sub>`) is the calling app's reserved namespace, stored resolved as
// `app--<api client id>` (`app--<id>--<sub>`); a metafield's storefront access comes from its
// definition and is NONE without one or when the definition says so; a second definition of the
// same owner type, namespace and key is TAKEN. Only the fields the app sends are modelled.
import { newGid, type Metafield, type MetafieldDefinition, type ShopState, type SimState, type Outcome } from "../state";
import { ok, refuse } from "./outcome";

interface DefinitionInput {
  name?: unknown;
  namespace?: unknown;
  key?: unknown;
  type?: unknown;
  ownerType?: unknown;
  description?: unknown;
  access?: { storefront?: unknown; admin?: unknown } | null;
}

const OWNER_TYPES = new Set(["PRODUCT", "PRODUCTVARIANT", "CUSTOMER", "SHOP", "COLLECTION", "ORDER"]);
const TYPES = new Set(["json", "single_line_text_field", "multi_line_text_field", "boolean", "number_integer", "number_decimal"]);
const NAME_CHARS = /^[A-Za-z0-9_-]+$/;

/** `$app` → `app--<id>`, `$app:sub` → `app--<id>--sub`; any other namespace as given. */
export function resolveNamespace(namespace: string, appClientId: string): string {
  if (namespace === "$app") return `app--${appClientId}`;
  if (namespace.startsWith("$app:")) return `app--${appClientId}--${namespace.slice(5)}`;
  return namespace;
}

const definitionsOf = (shop: ShopState) => (shop.metafieldDefinitions ??= {});
const slot = (ownerType: string, namespace: string, key: string) => `${ownerType}|${namespace}|${key}`;

export function createMetafieldDefinition(
  state: SimState,
  shop: ShopState,
  raw: DefinitionInput,
  appClientId: string,
  now: Date,
): Outcome<MetafieldDefinition> {
  const at = (f: string) => ["definition", f];
  if (typeof raw.name !== "string" || raw.name.trim() === "") return refuse("Name can't be blank", at("name"), "BLANK");
  if (typeof raw.key !== "string" || raw.key.length < 2) return refuse("Key is too short (minimum is 2 characters)", at("key"), "TOO_SHORT");
  if (raw.key.length > 64) return refuse("Key is too long (maximum is 64 characters)", at("key"), "TOO_LONG");
  if (!NAME_CHARS.test(raw.key)) return refuse("Key contains one or more invalid characters", at("key"), "INVALID_CHARACTER");
  const namespace = resolveNamespace(typeof raw.namespace === "string" ? raw.namespace : "$app", appClientId);
  if (namespace.length < 3) return refuse("Namespace is too short (minimum is 3 characters)", at("namespace"), "TOO_SHORT");
  if (typeof raw.ownerType !== "string" || !OWNER_TYPES.has(raw.ownerType))
    return refuse("Owner type is not included in the list", at("ownerType"), "INCLUSION");
  if (typeof raw.type !== "string" || !TYPES.has(raw.type)) return refuse("Type is not included in the list", at("type"), "INCLUSION");
  const storefront = raw.access?.storefront ?? "NONE";
  if (storefront !== "NONE" && storefront !== "PUBLIC_READ") return refuse("Storefront access is invalid", ["definition", "access", "storefront"], "INVALID");
  const appOwned = namespace.startsWith("app--");
  if (raw.access?.admin != null && !appOwned) {
    return refuse(
      "Admin access can only be specified for app-owned metafield definitions.",
      ["definition", "access", "admin"],
      "ADMIN_ACCESS_INPUT_NOT_ALLOWED",
    );
  }
  const defs = definitionsOf(shop);
  if (defs[slot(raw.ownerType, namespace, raw.key)]) return refuse("Key is in use for Product metafields on the 'namespace' namespace.", at("key"), "TAKEN");
  const def: MetafieldDefinition = {
    id: newGid(state, "MetafieldDefinition"),
    name: raw.name,
    namespace,
    key: raw.key,
    type: raw.type,
    ownerType: raw.ownerType,
    description: typeof raw.description === "string" ? raw.description : null,
    access: { storefront, admin: typeof raw.access?.admin === "string" ? raw.access.admin : appOwned ? "MERCHANT_READ" : "PUBLIC_READ_WRITE" },
    createdAt: now.toISOString(),
  };
  defs[slot(def.ownerType, namespace, def.key)] = def;
  return ok(def);
}

/** Only access (storefront) and name/description are updatable here; the identity fields find the definition. */
export function updateMetafieldDefinition(shop: ShopState, raw: DefinitionInput, appClientId: string): Outcome<MetafieldDefinition> {
  const namespace = resolveNamespace(typeof raw.namespace === "string" ? raw.namespace : "$app", appClientId);
  const def = definitionsOf(shop)[slot(String(raw.ownerType), namespace, String(raw.key))];
  if (!def) return refuse("Definition not found.", ["definition"], "NOT_FOUND");
  const storefront = raw.access?.storefront;
  if (storefront !== undefined && storefront !== null) {
    if (storefront !== "NONE" && storefront !== "PUBLIC_READ") return refuse("Storefront access is invalid", ["definition", "access", "storefront"], "INVALID");
    def.access.storefront = storefront;
  }
  if (typeof raw.name === "string" && raw.name.trim()) def.name = raw.name;
  if (typeof raw.description === "string") def.description = raw.description;
  return ok(def);
}

/** The definition a stored metafield falls under (metafieldsSet stores `$app` as sent). */
export function definitionOf(
  shop: ShopState,
  ownerType: string,
  m: Pick<Metafield, "namespace" | "key">,
  appClientId: string,
): MetafieldDefinition | undefined {
  return shop.metafieldDefinitions?.[slot(ownerType, resolveNamespace(m.namespace, appClientId), m.key)];
}

/**
 * The owner's metafield as the Storefront API shows it: only under a definition with storefront
 * PUBLIC_READ; otherwise null, as if absent. `namespace` is what the storefront asks for: a
 * resolved `app--<id>` namespace (a storefront is not the app, so `$app` means nothing there).
 */
export function storefrontMetafield(
  shop: ShopState,
  ownerType: string,
  ownerId: string,
  namespace: string,
  key: string,
  appClientId: string,
): Metafield | null {
  const m = Object.values(shop.metafields).find((x) => x.ownerId === ownerId && x.key === key && resolveNamespace(x.namespace, appClientId) === namespace);
  if (!m) return null;
  return definitionOf(shop, ownerType, m, appClientId)?.access.storefront === "PUBLIC_READ" ? m : null;
}

/** The numeric API client id `$app` resolves to: stable per app (derived from its API key). */
export function appClientIdOf(apiKey: string): string {
  let h = 2166136261;
  for (const c of apiKey) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return String(100000 + (h % 900000000));
}

/** A definition as the Admin schema's MetafieldDefinition (the fields modelled). */
export function gqlMetafieldDefinition(d: MetafieldDefinition) {
  return {
    __typename: "MetafieldDefinition",
    id: d.id,
    name: d.name,
    namespace: d.namespace,
    key: d.key,
    ownerType: d.ownerType,
    description: d.description,
    type: { __typename: "MetafieldDefinitionType", name: d.type },
    access: { __typename: "MetafieldAccess", storefront: d.access.storefront, admin: d.access.admin },
  };
}
