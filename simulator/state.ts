// The simulator's whole world as plain JSON-serialisable data: one object per shop, each holding
// what Shopify would hold for it. Persisted as is (persistence.ts), mutated only by the functions in store/.
import { randomBytes } from "node:crypto";

export type ContractStatus = "ACTIVE" | "PAUSED" | "CANCELLED" | "EXPIRED" | "FAILED" | "STALE";
export type Interval = "DAY" | "WEEK" | "MONTH" | "YEAR";
/** "self" = created by this app (visible to it); "other" = another app's (invisible). */
export type AppOwner = "self" | "other";

export interface UserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

export interface Anchor {
  day: number;
  month: number | null;
  type: "WEEKDAY" | "MONTHDAY" | "YEARDAY";
}

export interface Policy {
  interval: Interval;
  intervalCount: number;
  anchors: Anchor[];
  minCycles: number | null;
  maxCycles: number | null;
}

export interface Line {
  id: string;
  productId: string;
  variantId: string;
  title: string;
  variantTitle: string | null;
  quantity: number;
  price: string;
  sellingPlanId: string | null;
  sellingPlanName: string | null;
  /** Shopify's SubscriptionLine.customAttributes (absent on lines stored before they were modelled). */
  customAttributes?: { key: string; value: string }[];
}

export interface Contract {
  id: string;
  app: AppOwner;
  status: ContractStatus;
  nextBillingDate: string;
  /** Cycle 1 bills on this date; cycle n on cycleAnchor + (n-1) intervals. */
  cycleAnchor: string;
  skippedCycles: number[];
  createdAt: string;
  updatedAt: string;
  revisionId: number;
  currencyCode: string;
  customerId: string;
  paymentMethodId: string | null;
  originOrder: { id: string; name: string } | null;
  billingPolicy: Policy;
  deliveryPolicy: Policy;
  lines: Line[];
  /** subscriptionContractAtomicCreate's contract.customAttributes (absent on seeded contracts). */
  customAttributes?: { key: string; value: string }[];
  /** The shipping address of deliveryMethod.shipping (absent on seeded contracts). */
  deliveryAddress?: Address | null;
}

export interface Draft {
  id: string;
  contractId: string;
  baseRevisionId: number;
  lines: Line[];
  createdAt: string;
  /** subscriptionDraftUpdate's deliveryMethod.shipping.address, applied by the commit. */
  deliveryAddress?: Address;
}

export type PaymentInstrument =
  | { kind: "credit_card"; brand: string; last4: string; expiryMonth: number; expiryYear: number }
  | { kind: "shop_pay"; last4: string; expiryMonth: number; expiryYear: number }
  | { kind: "paypal"; paypalEmail: string }
  /** customerPaymentMethodRemoteCreate: a reference into the previous processor's vault (Stripe, Braintree, Authorize.net). */
  | { kind: "remote"; gateway: "stripe" | "braintree" | "authorize_net"; remoteCustomerId: string; remotePaymentMethodId: string };

export type PaymentMethod = PaymentInstrument & {
  id: string;
  revokedAt: string | null;
  /** What a billing attempt on it does (simulator/subscription-billing.ts); absent = "succeed". */
  billing?: PaymentBehavior;
};

export interface Address {
  address1: string;
  city: string;
  province: string | null;
  country: string;
  zip: string;
  /** Given by customerAddressCreate; absent on seeded addresses (then the customer's own are shown). */
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address2?: string | null;
  phone?: string | null;
}

export interface Customer {
  id: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  address: Address | null;
  paymentMethods: PaymentMethod[];
  /** Shopify's CustomerEmailAddressMarketingState of the default address (absent in older state files: NOT_SUBSCRIBED, Shopify's default). */
  marketingState?: MarketingState;
}

export type MarketingState = "INVALID" | "NOT_SUBSCRIBED" | "PENDING" | "SUBSCRIBED" | "UNSUBSCRIBED";

/** A code discount made by discountCodeBasicCreate (store/discounts.ts). */
export interface CodeDiscount {
  id: string;
  title: string;
  code: string;
  percentage: number;
  customerIds: string[];
  startsAt: string;
  endsAt: string | null;
  usageLimit: number | null;
  appliesOncePerCustomer: boolean;
  appliesOnSubscription: boolean;
  createdAt: string;
}

export interface Variant {
  id: string;
  productId: string;
  title: string;
  price: string;
  sku: string | null;
  available: boolean;
  imageUrl: string | null;
}

export interface Product {
  id: string;
  title: string;
  imageUrl: string | null;
  variantIds: string[];
}

export interface SellingPlan {
  id: string;
  name: string;
  interval: Interval;
  intervalCount: number;
  /** What sellingPlanGroupCreate/Update gave (absent on seeded plans: rolling, no pricing). */
  policies?: SellingPlanPolicies;
}

export interface PricingPolicy {
  kind: "fixed" | "recurring";
  adjustmentType: "PERCENTAGE" | "FIXED_AMOUNT" | "PRICE";
  /** A percentage, or a decimal amount. */
  value: string;
  afterCycle: number | null;
}

export interface SellingPlanPolicies {
  options: string[];
  description: string | null;
  position: number | null;
  minCycles: number | null;
  maxCycles: number | null;
  /** Billing and delivery anchors are equal (the rules refuse otherwise). */
  anchors: (Anchor & { cutoffDay: number | null })[];
  cutoff: number | null;
  preAnchorBehavior: "ASAP" | "NEXT";
  pricingPolicies: PricingPolicy[];
}

export interface SellingPlanGroup {
  id: string;
  name: string;
  merchantCode: string;
  app: AppOwner;
  sellingPlans: SellingPlan[];
  variantIds: string[];
}

export interface Metafield {
  id: string;
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  updatedAt: string;
}

/** A metafield definition (simulator/store/metafield-definitions.ts); namespace stored resolved (app--<id>). */
export interface MetafieldDefinition {
  id: string;
  name: string;
  namespace: string;
  key: string;
  type: string;
  ownerType: string;
  description: string | null;
  access: { storefront: "NONE" | "PUBLIC_READ"; admin: string };
  createdAt: string;
}

export interface Email {
  id: string;
  kind: "payment_method_update";
  to: string;
  customerId: string;
  paymentMethodId: string;
  sentAt: string;
}

export interface OperationRecord {
  seq: number;
  at: string;
  api: "admin" | "customer_account" | "oauth" | "billing" | "storefront";
  operation: string;
  variables: Record<string, unknown>;
  /** graphql_errors: the document did not validate against the schema, or its variables did not fit. */
  outcome: "ok" | "user_errors" | "throttled" | "http_error" | "unauthorized" | "graphql_errors";
}

/** One injected failure, consumed by the next call of `operation`. */
export type Failure =
  | { operation: string; userErrors: UserError[] }
  | { operation: string; status: number }
  | { operation: string; throttled: number }
  /** Answer normally, but only after delayMs (a slow platform: tests interrupt work mid-call). */
  | { operation: string; delayMs: number }
  /** Answer normally, but the webhooks the call causes never reach the app (all retries failed). */
  | { operation: string; webhooksLost: true };

export interface WebhookDelivery {
  id: string;
  topic: string;
  url: string;
  attempts: number;
  status: "pending" | "delivered" | "failed";
  lastStatus: number | null;
  at: string;
}

export interface ShopState {
  domain: string;
  numericId: number;
  name: string;
  email: string;
  currencyCode: string;
  /** IANA zone of the shop's calendar (absent in older state files: UTC). */
  ianaTimezone?: string;
  plan: { displayName: string; partnerDevelopment: boolean; shopifyPlus: boolean };
  createdAt: string;
  installation: { accessToken: string; scope: string; installedAt: string } | null;
  products: Record<string, Product>;
  variants: Record<string, Variant>;
  sellingPlanGroups: Record<string, SellingPlanGroup>;
  customers: Record<string, Customer>;
  contracts: Record<string, Contract>;
  drafts: Record<string, Draft>;
  customerAccessTokens: Record<string, { customerId: string; expiresAt: string }>;
  metafields: Record<string, Metafield>;
  emails: Email[];
  operations: OperationRecord[];
  failures: Failure[];
  deliveries: WebhookDelivery[];
  /** The simulated storefront's carts by token (simulator/storefront.ts); absent in older state files. */
  carts?: Record<string, { variantId: string; quantity: number; sellingPlanId: string | null; properties: Record<string, string> }[]>;
  /** Storefront customer sign-ins by cookie token → customer id (simulator/app-proxy.ts); absent in older state files. */
  storefrontSessions?: Record<string, string>;
  /** Shopify Billing: the app's recurring charges (simulator/billing.ts); absent in older state files. */
  appSubscriptions?: AppSubscription[];
  /** Subscription billing attempts by id, and "<contract id>|<idempotency key>" → id (absent in older state files). */
  billingAttempts?: Record<string, BillingAttempt>;
  billingAttemptKeys?: Record<string, string>;
  /** Metafield definitions by "<owner type>|<resolved namespace>|<key>" (store/metafield-definitions.ts); absent in older state files. */
  metafieldDefinitions?: Record<string, MetafieldDefinition>;
  /** flowTriggerReceive calls as Flow received them (simulator/flow.ts); absent in older state files. */
  flowTriggerCalls?: FlowTriggerCallRecord[];
  /** Storefront API access tokens (a headless storefront's credential) → when made; absent in older state files. */
  storefrontAccessTokens?: Record<string, { createdAt: string }>;
  /** Code discounts by id (store/discounts.ts); absent in older state files. */
  discounts?: Record<string, CodeDiscount>;
}

// ---- Shopify Flow (./flow.ts) ----------------------------------------------------------------------

export interface SimFlowField {
  type: string;
  key?: string;
}

export interface SimFlowTrigger {
  handle: string;
  name: string;
  fields: SimFlowField[];
}

export interface FlowTriggerCallRecord {
  seq: number;
  at: string;
  handle: string | null;
  payload: unknown;
  accepted: boolean;
  userErrors: { field: string[] | null; message: string }[];
}

export interface SimState {
  version: 1;
  nextId: number;
  shops: Record<string, ShopState>;
}

export const emptyState = (): SimState => ({ version: 1, nextId: 1001, shops: {} });

/** Logs are capped so a long-running dev simulator's state file stays small. */
export const LOG_CAP = 2000;

export function pushCapped<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > LOG_CAP) list.splice(0, list.length - LOG_CAP);
}

export function nextNumericId(state: SimState): number {
  return state.nextId++;
}

export function newGid(state: SimState, type: string): string {
  return `gid://shopify/${type}/${nextNumericId(state)}`;
}

export const numericIdOf = (gid: string): number => Number(gid.split("/").pop());

export const randomToken = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;

// ---- app charges (./billing.ts) and billing attempts (./subscription-billing.ts) -----------------

export type AppSubscriptionStatus = "PENDING" | "ACTIVE" | "DECLINED" | "CANCELLED" | "EXPIRED" | "FROZEN" | "ACCEPTED";

export interface AppSubscription {
  id: string;
  name: string;
  status: AppSubscriptionStatus;
  test: boolean;
  returnUrl: string;
  amount: string;
  currencyCode: string;
  interval: "EVERY_30_DAYS" | "ANNUAL";
  trialDays: number;
  createdAt: string;
  updatedAt: string;
  currentPeriodEnd: string | null;
}

export type PaymentBehavior = "succeed" | "authenticate" | string;

export type AttemptOutcome = "success" | "failure" | "challenged";

export interface BillingAttempt {
  id: string;
  contractId: string;
  idempotencyKey: string;
  originTime: string | null;
  /** The billing date this attempt charged for (the contract's next billing date when made). */
  billedFor: string;
  createdAt: string;
  completedAt: string;
  outcome: AttemptOutcome;
  errorCode: string | null;
  errorMessage: string | null;
  orderId: string | null;
  nextActionUrl: string | null;
}

// ---- what a mutation of the store returns (./store/) ----------------------------------------

export interface SimEvent {
  topic: string;
  payload: unknown;
  /** Webhooks about another app's contracts never reach this app. */
  app: AppOwner;
}

export type Outcome<T> = { ok: true; value: T; events: SimEvent[] } | { ok: false; userErrors: UserError[] };
