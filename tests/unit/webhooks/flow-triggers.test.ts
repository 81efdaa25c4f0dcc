// Every event of the catalogue has its Shopify Flow trigger extension, as `npm run flow:generate`
// writes it, within Flow's rules; and the payload the app sends for each event is one Flow accepts
// (the simulator's independent reading of the committed TOMLs; docs/decisions/128-flow-triggers.md).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { EVENT_CATALOGUE, EVENT_TYPES } from "../../../app/domain/outbound-webhooks/catalogue";
import { FLOW_TRIGGERS, flowExtensionDir, flowExtensionToml, flowPayload, flowTriggerFor } from "../../../app/domain/outbound-webhooks/flow-triggers";
import { flowUserErrors, loadFlowTriggers } from "../../../simulator/flow";

const EXTENSIONS = join(import.meta.dirname, "../../../extensions");
const tomlOf = (dir: string) => readFileSync(join(EXTENSIONS, dir, "shopify.extension.toml"), "utf8");
// Flow's published limits on a trigger extension (Shopify CLI validates the same on deploy).
const HANDLE = /^[a-zA-Z0-9-]{1,30}$/;
const KEY = /^[a-zA-Z ]+$/;
const TRIGGER_TYPES = ["single_line_text_field", "number_decimal", "boolean", "email", "url", "customer_reference", "order_reference", "product_reference"];

describe("Flow trigger extensions", () => {
  it("every event type the app publishes has exactly one trigger, committed as flow:generate writes it", () => {
    expect(FLOW_TRIGGERS.map((t) => t.eventType)).toEqual(EVENT_TYPES);
    for (const type of EVENT_TYPES) {
      const dir = flowExtensionDir(flowTriggerFor(type));
      expect(existsSync(join(EXTENSIONS, dir, "shopify.extension.toml")), `extensions/${dir} (run npm run flow:generate)`).toBe(true);
      expect(tomlOf(dir), `extensions/${dir} is stale (run npm run flow:generate)`).toBe(flowExtensionToml(flowTriggerFor(type)));
    }
    // No trigger folder left over from an event that left the catalogue.
    const dirs = readdirSync(EXTENSIONS).filter((d) => d.startsWith("flow-"));
    expect(dirs.sort()).toEqual(FLOW_TRIGGERS.map(flowExtensionDir).sort());
  });

  it("each TOML is a flow_trigger with a unique handle of at most 30 characters and fields Flow supports", () => {
    const handles = new Set<string>();
    for (const t of FLOW_TRIGGERS) {
      const toml = parse(tomlOf(flowExtensionDir(t))) as {
        extensions: { type: string; handle: string; name: string; description: string }[];
        settings: { fields: { type: string; key?: string }[] };
      };
      expect(toml.extensions).toHaveLength(1);
      const [ext] = toml.extensions;
      expect(ext.type).toBe("flow_trigger");
      expect(ext.handle).toMatch(HANDLE);
      expect(ext.name.length).toBeGreaterThan(0);
      handles.add(ext.handle);
      for (const f of toml.settings.fields) {
        expect(TRIGGER_TYPES, `${ext.handle}: ${f.type}`).toContain(f.type);
        if (f.type.endsWith("_reference")) expect(f.key).toBeUndefined();
        else expect(f.key, `${ext.handle}`).toMatch(KEY);
      }
      const keys = toml.settings.fields.map((f) => f.key ?? f.type);
      expect(new Set(keys).size, `${ext.handle}: duplicate field`).toBe(keys.length);
    }
    expect(handles.size).toBe(FLOW_TRIGGERS.length);
  });

  it("no trigger declares a name or an e-mail: the customer travels as a reference Flow resolves", () => {
    for (const t of FLOW_TRIGGERS) {
      expect(t.fields.some((f) => f.type === "email" || /name|e-?mail/i.test(f.key ?? ""))).toBe(false);
    }
    expect(flowTriggerFor("subscription.paused").fields.map((f) => f.key ?? f.type)).toEqual([
      "Event ID",
      "Contract ID",
      "customer_reference",
      "Previous status",
      "New status",
    ]);
  });
});

describe("Flow trigger payloads", () => {
  const deployed = loadFlowTriggers(EXTENSIONS);

  it("the simulator reads one trigger per event from the committed extensions", () => {
    expect([...deployed.keys()].sort()).toEqual(FLOW_TRIGGERS.map((t) => t.handle).sort());
  });

  it("each event's payload, built from its catalogue example, is accepted for its trigger", () => {
    for (const type of EVENT_TYPES) {
      const payload = flowPayload(type, "evt_example", EVENT_CATALOGUE[type].example);
      expect(flowUserErrors(deployed, flowTriggerFor(type).handle, payload), type).toEqual([]);
      expect(payload["Event ID"]).toBe("evt_example");
    }
  });

  it("a customer travels as Shopify's numeric id under customer_id, money as a number and its currency, null values left out", () => {
    const renewed = flowPayload("subscription.renewed", "evt_1", {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      billing_attempt_id: "gid://shopify/SubscriptionBillingAttempt/77",
      order_id: null,
      amount: { amount: "29.50", currency_code: "EUR" },
      next_billing_at: null,
    });
    expect(renewed).toEqual({
      "Event ID": "evt_1",
      "Contract ID": "gid://shopify/SubscriptionContract/1001",
      customer_id: 501,
      "Billing attempt ID": "gid://shopify/SubscriptionBillingAttempt/77",
      Amount: 29.5,
      "Amount currency": "EUR",
    });
  });

  it("Flow refuses an unknown handle, an undeclared key, a value of the wrong type and a missing reference, with userErrors", () => {
    const good = flowPayload("subscription.paused", "evt_2", EVENT_CATALOGUE["subscription.paused"].example);
    expect(flowUserErrors(deployed, "subscription-exploded", good)).toEqual([
      { field: ["handle"], message: 'No Flow trigger with handle "subscription-exploded" is deployed for this app' },
    ]);
    expect(flowUserErrors(deployed, "subscription-paused", { ...good, Email: "a@b.c" })).toEqual([
      { field: ["payload", "Email"], message: 'Email is not a field of the trigger "subscription-paused"' },
    ]);
    expect(flowUserErrors(deployed, "subscription-paused", { ...good, "New status": 3 })).toEqual([
      { field: ["payload", "New status"], message: "New status must be a single line of text" },
    ]);
    const { customer_id: _dropped, ...withoutCustomer } = good;
    expect(flowUserErrors(deployed, "subscription-paused", withoutCustomer)).toEqual([
      { field: ["payload", "customer_id"], message: "customer_id is required by the trigger's customer_reference field" },
    ]);
    expect(flowUserErrors(deployed, "subscription-paused", { ...good, customer_id: "gid://shopify/Customer/501" })[0].message).toBe(
      "customer_id must be a numeric id",
    );
  });
});
