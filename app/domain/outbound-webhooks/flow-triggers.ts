// Shopify Flow triggers, one per event of the catalogue, derived from it (docs/decisions/128-flow-triggers.md).
// Each event's strict `data` schema (catalogue.ts) decides the trigger's declared fields and the
// payload flowTriggerReceive carries, so an event added to the catalogue has its trigger by
// construction: `npm run flow:generate` writes extensions/flow-<handle>/shopify.extension.toml,
// and tests/unit/webhooks/flow-triggers.test.ts fails while a committed TOML differs or is missing.
//
// Flow's rules for a trigger (checked by the unit test): a handle of at most 30 letters, digits
// and hyphens; field keys of letters and spaces; field types among single_line_text_field,
// number_decimal, boolean, email, url and the reference types. A customer gid becomes Flow's
// customer_reference (the payload's `customer_id`, Shopify's numeric id), so a workflow can read
// the customer from Shopify; the app itself sends no name or e-mail. A null value is left out of
// the payload (Flow treats a field it was not sent as empty).
// No server imports: the Flow page reads the triggers too.
import { z } from "zod";
import { SHOPIFY_API_VERSION } from "../../platform/api-version";
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from "./catalogue";

/** Flow's field types for a trigger's own fields, and the reference types it resolves. */
export const FLOW_FIELD_TYPES = ["single_line_text_field", "number_decimal", "boolean", "email", "url"] as const;
export const FLOW_REFERENCE_TYPES = ["customer_reference", "order_reference", "product_reference"] as const;
export type FlowFieldType = (typeof FLOW_FIELD_TYPES)[number] | (typeof FLOW_REFERENCE_TYPES)[number];

export interface FlowField {
  type: FlowFieldType;
  /** Absent on reference fields: Flow names their payload key (`customer_id`, `order_id`, ...). */
  key?: string;
  description: string;
}

export interface FlowTrigger {
  eventType: EventType;
  handle: string;
  name: string;
  description: string;
  fields: FlowField[];
}

/** How one `data` field becomes payload entries. */
interface FieldRule {
  fields: FlowField[];
  payload(value: unknown, out: Record<string, unknown>): void;
}

/** Handles Flow would refuse (over 30 characters) get a shorter one here; a handle never changes once deployed. */
const HANDLE_OVERRIDES: Partial<Record<EventType, string>> = {
  "customer.payment_method_updated": "payment-method-updated",
};

const REFERENCES: Record<string, (typeof FLOW_REFERENCE_TYPES)[number]> = {
  customer_id: "customer_reference",
  order_id: "order_reference",
  product_id: "product_reference",
};

/** "billing_attempt_id" -> "Billing attempt ID" (Flow keys: letters and spaces only). */
export function flowKey(snake: string): string {
  const words = snake.split("_").map((w) => (w === "id" ? "ID" : w));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const flowHandle = (type: EventType): string => HANDLE_OVERRIDES[type] ?? type.replace(/[._]/g, "-");

/** "subscription.payment_failed" -> "Subscription payment failed" (Flow's sentence case). */
const flowName = (type: EventType): string => flowKey(type.replace(".", "_"));

const numericId = (gid: string): number => Number(gid.slice(gid.lastIndexOf("/") + 1));

function ruleFor(name: string, declared: z.ZodType): FieldRule {
  // A field present on some events only (subscription.created's `winback`) is optional in Flow too.
  const schema = declared instanceof z.ZodOptional ? (declared.unwrap() as z.ZodType).nullable() : declared;
  const nullable = schema instanceof z.ZodNullable;
  const inner = (nullable ? (schema as z.ZodNullable<z.ZodType>).unwrap() : schema) as z.ZodType;
  const described = schema.description ?? inner.description ?? flowKey(name);
  const description = described.charAt(0).toUpperCase() + described.slice(1);
  const key = flowKey(name);
  const reference = REFERENCES[name];
  if (reference && !nullable && inner instanceof z.ZodString) {
    // Flow resolves the reference itself; its payload key is fixed and its value Shopify's numeric id.
    const payloadKey = `${reference.replace("_reference", "")}_id`;
    const what = description.replace(/ \(gid\)$/, "");
    return {
      fields: [{ type: reference, description: `${what}, which Flow reads from Shopify` }],
      payload: (v, out) => void (out[payloadKey] = numericId(String(v))),
    };
  }
  const set = (k: string, value: unknown, out: Record<string, unknown>) => {
    if (value !== null && value !== undefined) out[k] = value;
  };
  if (inner instanceof z.ZodString || inner instanceof z.ZodEnum) {
    return { fields: [{ type: "single_line_text_field", key, description }], payload: (v, out) => set(key, v, out) };
  }
  if (inner instanceof z.ZodBoolean) {
    return { fields: [{ type: "boolean", key, description }], payload: (v, out) => set(key, v, out) };
  }
  if (inner instanceof z.ZodObject && Object.keys(inner.shape).sort().join(",") === "amount,currency_code") {
    const currencyKey = `${key} currency`;
    return {
      fields: [
        { type: "number_decimal", key, description: "The amount, in the currency's own decimals" },
        { type: "single_line_text_field", key: currencyKey, description: "The amount's ISO 4217 currency code" },
      ],
      payload: (v, out) => {
        const money = v as { amount: string; currency_code: string } | null;
        set(key, money ? Number(money.amount) : null, out);
        set(currencyKey, money?.currency_code ?? null, out);
      },
    };
  }
  if (inner instanceof z.ZodObject) {
    // Any other object: its fields, each under "<Key> <field>", absent when the object is.
    const subs = Object.entries(inner.shape as Record<string, z.ZodType>).map(([sub, s]) => [sub, ruleFor(`${name}_${sub}`, s.nullable())] as const);
    return {
      fields: subs.flatMap(([, r]) => r.fields),
      payload: (v, out) => {
        const o = (v ?? {}) as Record<string, unknown>;
        for (const [sub, r] of subs) r.payload(o[sub] ?? null, out);
      },
    };
  }
  throw new Error(`No Flow field type for data field "${name}": add a rule in flow-triggers.ts`);
}

const EVENT_ID_FIELD: FlowField = { type: "single_line_text_field", key: "Event ID", description: "The event's id (evt_...), the same as its webhooks carry" };

function rulesOf(type: EventType): [string, FieldRule][] {
  const shape = (EVENT_CATALOGUE[type].data as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, schema]) => [name, ruleFor(name, schema)]);
}

function triggerOf(type: EventType): FlowTrigger {
  return {
    eventType: type,
    handle: flowHandle(type),
    name: flowName(type),
    description: `Starts when ${EVENT_CATALOGUE[type].firesWhen}.`,
    fields: [EVENT_ID_FIELD, ...rulesOf(type).flatMap(([, r]) => r.fields)],
  };
}

/** Every event type's trigger, in catalogue order. */
export const FLOW_TRIGGERS: readonly FlowTrigger[] = EVENT_TYPES.map(triggerOf);

export function flowTriggerFor(type: EventType): FlowTrigger {
  return FLOW_TRIGGERS.find((t) => t.eventType === type)!;
}

/** The payload of flowTriggerReceive for one published event (its stored, allowlisted `data`). */
export function flowPayload(type: EventType, eventId: string, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { [EVENT_ID_FIELD.key!]: eventId };
  for (const [name, rule] of rulesOf(type)) rule.payload(data[name] ?? null, out);
  return out;
}

/** The folder of a trigger's extension under extensions/. */
export const flowExtensionDir = (t: FlowTrigger) => `flow-${t.handle}`;

/** The extension's shopify.extension.toml, as `npm run flow:generate` writes it. */
export function flowExtensionToml(t: FlowTrigger): string {
  const s = (v: string) => JSON.stringify(v);
  const fields = t.fields.map((f) =>
    ["", "[[settings.fields]]", `type = ${s(f.type)}`, ...(f.key ? [`key = ${s(f.key)}`] : []), `description = ${s(f.description)}`].join("\n"),
  );
  return [
    "# Generated by `npm run flow:generate` from the event catalogue (app/domain/outbound-webhooks/catalogue.ts;",
    "# docs/decisions/128-flow-triggers.md). Do not edit: change the catalogue and regenerate.",
    `api_version = ${s(SHOPIFY_API_VERSION)}`,
    "",
    "[[extensions]]",
    `name = ${s(t.name)}`,
    'type = "flow_trigger"',
    `handle = ${s(t.handle)}`,
    `description = ${s(t.description)}`,
    "",
    "[settings]",
    ...fields,
    "",
  ].join("\n");
}
