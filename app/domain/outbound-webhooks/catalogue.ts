// The outbound event catalogue (GET /webhooks/events) and the allowlisted `data` of every event
// (docs/decisions/050-webhook-events.md). `data` carries ids, statuses, dates and amounts only:
// never a name, an e-mail or an address. Each event's data is a strict zod object, so a field
// that is not on the allowlist cannot be published (publishEvent parses with it).
// No server imports: the Webhooks page reads the catalogue too.
import { z } from "zod";

const gid = (what: string) => z.string().describe(`${what} (gid)`);
const timestamp = (what: string) => z.string().describe(`${what} (ISO 8601, UTC)`);
const money = z.strictObject({ amount: z.string().describe("decimal in the currency's own exponent"), currency_code: z.string() });
const contractStatus = z.enum(["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED", "STALE"]);

const statusChange = z.strictObject({
  contract_id: gid("the subscription contract"),
  customer_id: gid("the customer"),
  previous_status: contractStatus.nullable().describe("status last announced; null when none was"),
  new_status: contractStatus,
});

const billing = {
  contract_id: gid("the subscription contract"),
  customer_id: gid("the customer"),
  billing_attempt_id: gid("the billing attempt"),
};

export const EVENT_CATALOGUE = {
  "subscription.created": {
    firesWhen: "a new contract is created",
    data: z.strictObject({
      contract_id: gid("the subscription contract"),
      customer_id: gid("the customer"),
      status: contractStatus,
      winback: z
        .strictObject({
          campaign_id: z.string().describe("the win-back campaign"),
          send_id: z.string().describe("the campaign's send that brought the customer back"),
          previous_contract_id: gid("the cancelled contract this one was cloned from"),
        })
        .optional()
        .describe("present only when a win-back's come-back link made the contract (docs/decisions/116)"),
    }),
    example: { contract_id: "gid://shopify/SubscriptionContract/1001", customer_id: "gid://shopify/Customer/501", status: "ACTIVE" },
  },
  "subscription.renewed": {
    firesWhen: "a recurring charge succeeds",
    data: z.strictObject({ ...billing, order_id: gid("the order").nullable(), amount: money.nullable(), next_billing_at: timestamp("next charge").nullable() }),
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      billing_attempt_id: "gid://shopify/SubscriptionBillingAttempt/77",
      order_id: "gid://shopify/Order/9001",
      amount: { amount: "29.00", currency_code: "USD" },
      next_billing_at: "2026-12-21T00:00:00.000Z",
    },
  },
  "subscription.renewal_reminder": {
    firesWhen: "an upcoming charge is approaching",
    data: z.strictObject({
      contract_id: gid("the subscription contract"),
      customer_id: gid("the customer"),
      next_billing_at: timestamp("the upcoming charge"),
      amount: money.nullable(),
    }),
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      next_billing_at: "2026-12-21T00:00:00.000Z",
      amount: { amount: "29.00", currency_code: "USD" },
    },
  },
  "subscription.payment_failed": {
    firesWhen: "a charge fails and dunning starts",
    data: z.strictObject({
      ...billing,
      error_code: z.string().nullable().describe("the platform's billing error code"),
      amount: money.nullable(),
      next_retry_at: timestamp("next dunning retry").nullable(),
    }),
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      billing_attempt_id: "gid://shopify/SubscriptionBillingAttempt/78",
      error_code: "CARD_DECLINED",
      amount: { amount: "29.00", currency_code: "USD" },
      next_retry_at: "2026-11-24T00:00:00.000Z",
    },
  },
  "subscription.payment_recovered": {
    firesWhen: "a dunning retry succeeds",
    data: z.strictObject({ ...billing, order_id: gid("the order").nullable(), amount: money.nullable() }),
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      billing_attempt_id: "gid://shopify/SubscriptionBillingAttempt/79",
      order_id: "gid://shopify/Order/9002",
      amount: { amount: "29.00", currency_code: "USD" },
    },
  },
  "subscription.paused": {
    firesWhen: "paused by customer, merchant or dunning",
    data: statusChange,
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      previous_status: "ACTIVE",
      new_status: "PAUSED",
    },
  },
  "subscription.cancelled": {
    firesWhen: "cancelled; will not bill again",
    data: statusChange,
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      previous_status: "ACTIVE",
      new_status: "CANCELLED",
    },
  },
  "subscription.reactivated": {
    firesWhen: "a paused or cancelled contract is active again",
    data: statusChange,
    example: {
      contract_id: "gid://shopify/SubscriptionContract/1001",
      customer_id: "gid://shopify/Customer/501",
      previous_status: "PAUSED",
      new_status: "ACTIVE",
    },
  },
  "customer.payment_method_updated": {
    firesWhen: "the card behind the subscriptions changed",
    data: z.strictObject({
      customer_id: gid("the customer"),
      payment_method_id: gid("the customer payment method"),
      revoked: z.boolean().describe("true when the method was revoked"),
    }),
    example: { customer_id: "gid://shopify/Customer/501", payment_method_id: "gid://shopify/CustomerPaymentMethod/abc123", revoked: false },
  },
  "customer.winback_started": {
    firesWhen: "a win-back campaign touched a churned customer",
    data: z.strictObject({
      campaign_id: z.string().describe("the win-back campaign (GET /winback/campaigns)"),
      send_id: z
        .string()
        .describe("the campaign's send to this customer (GET /winback/campaigns/{id}/sends); fired only for customers sent to, never for the hold-out"),
      customer_id: gid("the customer"),
      contract_id: gid("the churned contract").nullable(),
    }),
    example: {
      campaign_id: "clx0campaign",
      send_id: "clx0send",
      customer_id: "gid://shopify/Customer/501",
      contract_id: "gid://shopify/SubscriptionContract/1001",
    },
  },
  "gift.created": {
    firesWhen: "a gift subscription is purchased",
    data: z.strictObject({
      gift_id: z.string(),
      kind: z.enum(["prepaid", "recurring"]),
      status: z.string(),
      contract_id: gid("the gift's contract").nullable(),
    }),
    example: { gift_id: "clx0gift", kind: "prepaid", status: "pending", contract_id: null },
  },
  "gift.sent": {
    firesWhen: "the claim e-mail goes out to the recipient",
    data: z.strictObject({ gift_id: z.string(), sent_at: timestamp("when the claim e-mail went out") }),
    example: { gift_id: "clx0gift", sent_at: "2026-11-21T10:00:00.000Z" },
  },
  "gift.claimed": {
    firesWhen: "the recipient claims the gift",
    data: z.strictObject({ gift_id: z.string(), contract_id: gid("the gift's contract").nullable(), claimed_at: timestamp("when it was claimed") }),
    example: { gift_id: "clx0gift", contract_id: "gid://shopify/SubscriptionContract/1002", claimed_at: "2026-11-22T10:00:00.000Z" },
  },
  "gift.expired": {
    firesWhen: "an unclaimed gift passes its window",
    data: z.strictObject({ gift_id: z.string(), expired_at: timestamp("when the claim window closed") }),
    example: { gift_id: "clx0gift", expired_at: "2026-12-21T10:00:00.000Z" },
  },
  "gift.ended": {
    firesWhen: "a gift's final charge has run",
    data: z.strictObject({ gift_id: z.string(), contract_id: gid("the gift's contract").nullable(), ended_at: timestamp("when the final charge ran") }),
    example: { gift_id: "clx0gift", contract_id: "gid://shopify/SubscriptionContract/1002", ended_at: "2027-05-21T10:00:00.000Z" },
  },
} as const satisfies Record<string, { firesWhen: string; data: z.ZodType; example: Record<string, unknown> }>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];
export type EventData<T extends EventType> = z.input<(typeof EVENT_CATALOGUE)[T]["data"]>;

/** Names kept for later that are refused at subscribe time like any unknown name. */
export const RESERVED_EVENT_NAMES = ["subscription.skipped", "subscription.updated", "bundle.generated", "box.selected", "gift.updated"] as const;

export function isEventType(name: string): name is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_CATALOGUE, name);
}

/** The message of invalid_request for names outside the catalogue (reserved ones said so). */
export function unknownEventsMessage(names: string[]): string | null {
  const bad = names.filter((n) => !isEventType(n));
  if (!bad.length) return null;
  const reserved = bad.filter((n) => (RESERVED_EVENT_NAMES as readonly string[]).includes(n));
  const unknown = bad.filter((n) => !reserved.includes(n));
  const parts = [
    ...(unknown.length ? [`unknown event ${unknown.map((n) => `"${n}"`).join(", ")}`] : []),
    ...(reserved.length ? [`reserved event ${reserved.map((n) => `"${n}"`).join(", ")} (not delivered yet)`] : []),
  ];
  return `${parts.join("; ")}: subscribe to names from GET /webhooks/events`;
}

/** The delivery ladder (docs/decisions/052): delay before each attempt, the first at once. */
export const RETRY_LADDER_MS = [0, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;
export const MAX_ACTIVE_ENDPOINTS = 10;
export const DISABLE_AFTER_EXHAUSTED = 10;
export const DELIVERY_RETENTION_DAYS = 30;
