// Subscription billing, simulated (docs/simulator.md#subscription-billing): the app asks for a
// billing attempt on a contract's due date (subscriptionBillingAttemptCreate, idempotent on its
// key per contract), and the customer's payment method decides the outcome:
//   - "succeed" (the default): an order is created, the contract's next billing date moves one
//     interval on (to the next anchor on an anchored plan), and subscription_billing_attempts/success
//     plus subscription_contracts/update are sent;
//   - a SubscriptionBillingAttemptErrorCode (CARD_DECLINED, INSUFFICIENT_FUNDS, ...): the attempt
//     fails, the contract is unchanged, subscription_billing_attempts/failure is sent;
//   - "authenticate": 3-D Secure is needed; subscription_billing_attempts/challenged is sent.
// A missing or revoked method fails with PAYMENT_METHOD_NOT_FOUND, an expired card with
// EXPIRED_PAYMENT_METHOD. Like Shopify, the mutation answers while the attempt is still
// processing (ready: false); the outcome arrives by webhook (and by querying the attempt).
import {
  newGid,
  numericIdOf,
  type Anchor,
  type Contract,
  type PaymentMethod,
  type ShopState,
  type SimState,
  type UserError,
  type AttemptOutcome,
  type BillingAttempt,
  type Outcome,
  type SimEvent,
} from "./state";
import { ownContract } from "./store/contracts";
import { addInterval } from "./store/dates";
import { contractPayload } from "./payloads";

/** What a payment method does when charged: succeed, decline with a Shopify error code, or ask for 3-D Secure. */
const ERROR_MESSAGES: Record<string, string> = {
  CARD_DECLINED: "Your card was declined.",
  INSUFFICIENT_FUNDS: "Your card has insufficient funds.",
  EXPIRED_PAYMENT_METHOD: "Your payment method has expired.",
  PAYMENT_METHOD_NOT_FOUND: "Payment method was not found.",
  AUTHENTICATION_REQUIRED: "The payment needs to be authenticated by the customer.",
};

const ok = <T>(value: T, events: SimEvent[] = []): Outcome<T> => ({ ok: true, value, events });
const refuse = <T>(message: string, field: string[] | null, code: string): Outcome<T> => ({
  ok: false,
  userErrors: [{ field, message, code } satisfies UserError],
});

const DAY_MS = 86_400_000;
const daysInMonth = (y: number, m0: number) => new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();

/** The first instant on an anchor strictly after `after` (time of day kept from `after`). */
export function nextAnchorAfter(after: Date, anchors: Anchor[]): Date {
  const tod = after.getTime() % DAY_MS;
  const candidates = anchors.map((a) => {
    if (a.type === "WEEKDAY") {
      // Shopify: 1 = Monday ... 7 = Sunday.
      const want = a.day % 7;
      for (let i = 1; i <= 7; i++) {
        const d = new Date(after.getTime() + i * DAY_MS);
        if (d.getUTCDay() === want) return d;
      }
    }
    for (let step = 0; step < 24; step++) {
      const y = after.getUTCFullYear();
      const m0 = after.getUTCMonth() + step;
      const ty = y + Math.floor(m0 / 12);
      const tm = m0 % 12;
      if (a.type === "YEARDAY" && a.month !== null && tm !== a.month - 1) continue;
      const d = new Date(Date.UTC(ty, tm, Math.min(a.day, daysInMonth(ty, tm))) + tod);
      if (d.getTime() > after.getTime()) return d;
    }
    return new Date(addInterval(after.toISOString(), "MONTH", 1));
  });
  return candidates.sort((x, y) => x.getTime() - y.getTime())[0];
}

/** The contract's billing date after a charge for `billed`: one interval on, or the next anchor. */
export function followingBillingDate(c: Contract, billed: string): string {
  const { interval, intervalCount, anchors } = c.billingPolicy;
  if (!anchors.length) return addInterval(billed, interval, intervalCount);
  const base = new Date(addInterval(billed, interval, Math.max(0, intervalCount - 1)));
  return nextAnchorAfter(base, anchors).toISOString();
}

function paymentMethodOf(shop: ShopState, c: Contract): PaymentMethod | undefined {
  if (!c.paymentMethodId) return undefined;
  return shop.customers[c.customerId]?.paymentMethods.find((m) => m.id === c.paymentMethodId);
}

function decide(shop: ShopState, c: Contract, now: Date): { outcome: AttemptOutcome; errorCode: string | null } {
  const method = paymentMethodOf(shop, c);
  if (!method || method.revokedAt) return { outcome: "failure", errorCode: "PAYMENT_METHOD_NOT_FOUND" };
  if ("expiryYear" in method) {
    const expired = method.expiryYear < now.getUTCFullYear() || (method.expiryYear === now.getUTCFullYear() && method.expiryMonth < now.getUTCMonth() + 1);
    if (expired) return { outcome: "failure", errorCode: "EXPIRED_PAYMENT_METHOD" };
  }
  const behavior = method.billing ?? "succeed";
  if (behavior === "succeed") return { outcome: "success", errorCode: null };
  if (behavior === "authenticate") return { outcome: "challenged", errorCode: "AUTHENTICATION_REQUIRED" };
  return { outcome: "failure", errorCode: behavior };
}

export interface BillingAttemptInput {
  idempotencyKey?: unknown;
  originTime?: unknown;
  billingCycleSelector?: { date?: unknown; index?: unknown } | null;
}

const attemptsOf = (shop: ShopState) => (shop.billingAttempts ??= {});
const keyOf = (contractId: string, key: string) => `${contractId}|${key}`;

/**
 * subscriptionBillingAttemptCreate. Refusals are BillingAttemptUserError codes. The same key on
 * the same contract answers the attempt already made: a retried request never charges twice.
 */
export function createBillingAttempt(
  state: SimState,
  shop: ShopState,
  contractId: unknown,
  input: BillingAttemptInput,
  now: Date,
  publicUrl: string,
): Outcome<BillingAttempt> {
  const c = ownContract(shop, contractId);
  if (!c) return refuse("Subscription contract does not exist", ["subscriptionContractId"], "CONTRACT_NOT_FOUND");
  const key = typeof input.idempotencyKey === "string" ? input.idempotencyKey.trim() : "";
  if (!key) return refuse("Idempotency key can't be blank", ["subscriptionBillingAttemptInput", "idempotencyKey"], "BLANK");
  const index = (shop.billingAttemptKeys ??= {});
  const existingId = index[keyOf(c.id, key)];
  if (existingId) return ok(attemptsOf(shop)[existingId]);
  if (c.status === "PAUSED") return refuse("Subscription contract is paused", null, "CONTRACT_PAUSED");
  if (c.status === "CANCELLED" || c.status === "EXPIRED") return refuse("Subscription contract is terminated", null, "CONTRACT_TERMINATED");
  const selectorDate = input.billingCycleSelector?.date;
  if (typeof selectorDate === "string" && selectorDate.slice(0, 10) !== c.nextBillingDate.slice(0, 10)) {
    // Only the cycle due next is modelled: any other selected date is outside the billable range.
    return refuse(
      "Billing cycle selector cannot select billing cycle outside of start date range",
      ["subscriptionBillingAttemptInput", "billingCycleSelector", "date"],
      "CYCLE_START_DATE_OUT_OF_RANGE",
    );
  }
  const originTime = typeof input.originTime === "string" ? new Date(input.originTime).toISOString() : null;

  const decided = decide(shop, c, now);
  const id = newGid(state, "SubscriptionBillingAttempt");
  const attempt: BillingAttempt = {
    id,
    contractId: c.id,
    idempotencyKey: key,
    originTime,
    billedFor: c.nextBillingDate,
    createdAt: now.toISOString(),
    completedAt: now.toISOString(),
    outcome: decided.outcome,
    errorCode: decided.errorCode,
    errorMessage: decided.errorCode ? (ERROR_MESSAGES[decided.errorCode] ?? `Payment failed: ${decided.errorCode.toLowerCase().replace(/_/g, " ")}`) : null,
    orderId: decided.outcome === "success" ? newGid(state, "Order") : null,
    nextActionUrl: decided.outcome === "challenged" ? `${publicUrl}/checkouts/authenticate/${numericIdOf(id)}` : null,
  };
  attemptsOf(shop)[id] = attempt;
  index[keyOf(c.id, key)] = id;

  const events: SimEvent[] = [];
  if (attempt.outcome === "success") {
    c.nextBillingDate = followingBillingDate(c, c.nextBillingDate);
    c.updatedAt = now.toISOString();
    c.revisionId += 1;
    events.push({ topic: "subscription_contracts/update", payload: contractPayload(c), app: c.app });
  }
  events.push({ topic: `subscription_billing_attempts/${attempt.outcome}`, payload: billingAttemptPayload(attempt), app: c.app });
  return ok(attempt, events);
}

/** subscription_billing_attempts/success|failure|challenged, in the shape Shopify documents. */
export function billingAttemptPayload(a: BillingAttempt) {
  return {
    id: numericIdOf(a.id),
    admin_graphql_api_id: a.id,
    idempotency_key: a.idempotencyKey,
    order_id: a.orderId ? numericIdOf(a.orderId) : null,
    admin_graphql_api_order_id: a.orderId,
    subscription_contract_id: numericIdOf(a.contractId),
    admin_graphql_api_subscription_contract_id: a.contractId,
    ready: true,
    error_message: a.errorMessage,
    error_code: a.errorCode,
  };
}

/**
 * A SubscriptionBillingAttempt. `asCreated` shows it as the mutation answers it: still processing
 * (ready false, pending state), as Shopify does before the outcome webhook.
 */
export function gqlBillingAttempt(a: BillingAttempt, contract: unknown, asCreated = false) {
  const order = a.orderId ? { __typename: "Order", id: a.orderId, name: `#${numericIdOf(a.orderId)}` } : null;
  const state = asCreated
    ? { __typename: "SubscriptionBillingAttemptPendingState", processing: true }
    : a.outcome === "success"
      ? { __typename: "SubscriptionBillingAttemptSuccessState", order }
      : a.outcome === "failure"
        ? { __typename: "SubscriptionBillingAttemptFailedState", error: { __typename: "SubscriptionBillingAttemptPaymentError", code: a.errorCode } }
        : {
            __typename: "SubscriptionBillingAttemptActionRequiredState",
            action: { __typename: "SubscriptionBillingAttemptPaymentChallenge", nextActionUrl: a.nextActionUrl, status: "OFF_SESSION_REJECTED" },
          };
  return {
    __typename: "SubscriptionBillingAttempt",
    id: a.id,
    idempotencyKey: a.idempotencyKey,
    originTime: a.originTime,
    createdAt: a.createdAt,
    completedAt: asCreated ? null : a.completedAt,
    ready: !asCreated,
    errorCode: asCreated ? null : a.errorCode,
    errorMessage: asCreated ? null : a.errorMessage,
    nextActionUrl: asCreated ? null : a.nextActionUrl,
    order: asCreated ? null : order,
    state,
    subscriptionContract: contract,
  };
}
