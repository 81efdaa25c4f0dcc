// Shopify Flow's side of flowTriggerReceive (docs/simulator.md#flow-triggers). Shopify knows the
// deployed app's Flow trigger extensions; the simulator reads the same files, every
// extensions/*/shopify.extension.toml of type flow_trigger, at start. A call names a trigger by
// handle and carries a payload that must fit the trigger's declared fields: keys are the fields'
// `key`s, a reference field is carried as `<resource>_id` with Shopify's numeric id (and must be
// present, since Flow loads the resource), a value must have its field's type, and no key may be
// undeclared. A field left out is allowed (Flow treats it as empty). Refusals are userErrors
// { field message }, as the Admin API's FlowTriggerReceivePayload has them. Every call, accepted
// or not, is recorded for the control API (GET /_sim/shops/:shop/flow-trigger-calls).
// Independent of the app's own code (app/domain/outbound-webhooks/flow-triggers.ts): the two must agree.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import type { SimCore } from "./core";
import { pushCapped, type ShopState, type SimFlowField, type SimFlowTrigger } from "./state";

const REFERENCE = /^(customer|order|product|company|company_contact)_reference$/;

/** The flow_trigger extensions under `dir` (each subfolder's shopify.extension.toml), by handle. */
export function loadFlowTriggers(dir: string): Map<string, SimFlowTrigger> {
  const triggers = new Map<string, SimFlowTrigger>();
  if (!existsSync(dir)) return triggers;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name, "shopify.extension.toml");
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const toml = parse(readFileSync(file, "utf8")) as {
      extensions?: { type?: string; handle?: string; name?: string }[];
      settings?: { fields?: SimFlowField[] };
    };
    for (const ext of toml.extensions ?? []) {
      if (ext.type !== "flow_trigger" || !ext.handle) continue;
      triggers.set(ext.handle, { handle: ext.handle, name: ext.name ?? ext.handle, fields: toml.settings?.fields ?? [] });
    }
  }
  return triggers;
}

function typeError(type: string, value: unknown): string | null {
  switch (type) {
    case "single_line_text_field":
      return typeof value === "string" && !value.includes("\n") ? null : "must be a single line of text";
    case "number_decimal":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "email":
      return typeof value === "string" && /^[^@\s]+@[^@\s]+$/.test(value) ? null : "must be an email address";
    case "url":
      return typeof value === "string" && URL.canParse(value) ? null : "must be a URL";
    default:
      return `has a field type Flow does not support on triggers (${type})`;
  }
}

/** Shopify's userErrors for a call of `handle` with `payload`; empty when Flow accepts it. */
export function flowUserErrors(triggers: Map<string, SimFlowTrigger>, handle: unknown, payload: unknown): { field: string[] | null; message: string }[] {
  if (typeof handle !== "string" || !handle) return [{ field: ["handle"], message: "A trigger handle is required" }];
  const trigger = triggers.get(handle);
  if (!trigger) return [{ field: ["handle"], message: `No Flow trigger with handle "${handle}" is deployed for this app` }];
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return [{ field: ["payload"], message: "The payload must be a JSON object" }];
  const given = payload as Record<string, unknown>;
  const errors: { field: string[] | null; message: string }[] = [];
  const declared = new Set<string>();
  for (const f of trigger.fields) {
    const ref = REFERENCE.exec(f.type);
    if (ref) {
      const key = `${ref[1]}_id`;
      declared.add(key);
      const v = given[key];
      if (v === undefined || v === null) errors.push({ field: ["payload", key], message: `${key} is required by the trigger's ${f.type} field` });
      else if (!(typeof v === "number" && Number.isSafeInteger(v) && v > 0)) errors.push({ field: ["payload", key], message: `${key} must be a numeric id` });
      continue;
    }
    if (!f.key) continue;
    declared.add(f.key);
    if (!(f.key in given)) continue;
    const problem = typeError(f.type, given[f.key]);
    if (problem) errors.push({ field: ["payload", f.key], message: `${f.key} ${problem}` });
  }
  for (const key of Object.keys(given)) {
    if (!declared.has(key)) errors.push({ field: ["payload", key], message: `${key} is not a field of the trigger "${handle}"` });
  }
  return errors;
}

/** The flowTriggerReceive resolver: refuses as Flow would, records every call. */
export function flowTriggerReceive(core: SimCore, shop: ShopState, args: { handle?: string | null; payload?: unknown }) {
  const userErrors = flowUserErrors(core.flowTriggers, args.handle, args.payload);
  shop.flowTriggerCalls ??= [];
  pushCapped(shop.flowTriggerCalls, {
    seq: shop.flowTriggerCalls.length ? shop.flowTriggerCalls[shop.flowTriggerCalls.length - 1].seq + 1 : 1,
    at: core.now().toISOString(),
    handle: args.handle ?? null,
    payload: args.payload ?? null,
    accepted: userErrors.length === 0,
    userErrors,
  });
  core.changed();
  return { userErrors };
}

/** Control routes of a shop: the calls Flow received (filter by handle or accepted), and forgetting them. */
export const FLOW_CONTROL_ROUTES: [string, RegExp, (core: SimCore, shop: ShopState, body: unknown, query: URLSearchParams) => unknown][] = [
  [
    "GET",
    /^\/_sim\/shops\/([^/]+)\/flow-trigger-calls$/,
    (_core, shop, _body, q) =>
      (shop.flowTriggerCalls ?? []).filter(
        (c) => (!q.get("handle") || c.handle === q.get("handle")) && (!q.has("accepted") || String(c.accepted) === q.get("accepted")),
      ),
  ],
  [
    "DELETE",
    /^\/_sim\/shops\/([^/]+)\/flow-trigger-calls$/,
    (core, shop) => {
      shop.flowTriggerCalls = [];
      core.changed();
      return { ok: true };
    },
  ],
];
