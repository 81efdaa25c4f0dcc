// The Shopify port: every call the app makes to the platform, bound to one shop. Domain code
// depends on this interface only; app/platform/graphql/adapter.server.ts implements it with real
// Admin GraphQL requests (answered by the simulator in dev and tests, by Shopify in production).
// Every method throws PlatformError (app/platform/errors.ts) on failure; none returns partial work.
import type { PlatformError } from "./errors";

export type ContractStatus = "ACTIVE" | "PAUSED" | "CANCELLED" | "EXPIRED" | "FAILED" | "STALE";
export type BillingInterval = "DAY" | "WEEK" | "MONTH" | "YEAR";

export interface BillingAnchor {
  day: number;
  month: number | null;
  type: string; // WEEKDAY | MONTHDAY | YEARDAY
}

export interface PlatformLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  variantTitle: string | null;
  quantity: number;
  /** Decimal string in the contract currency, e.g. "12.50". */
  priceAmount: string;
  sellingPlanId: string | null;
  sellingPlanName: string | null;
  /** The line's custom attributes (the build-a-box pick is kept here; docs/decisions/070). */
  customAttributes?: { key: string; value: string }[];
}

export interface PlatformContract {
  id: string;
  status: ContractStatus;
  nextBillingDate: string | null;
  createdAt: string;
  updatedAt: string;
  revisionId: string;
  currencyCode: string;
  customerId: string | null;
  originOrderName: string | null;
  billingPolicy: { interval: BillingInterval; intervalCount: number; anchors: BillingAnchor[] };
  lines: PlatformLine[];
  /** The contract's custom attributes (a win-back clone names its send here: docs/decisions/116). */
  attributes?: Record<string, string>;
  /**
   * The expiry month of the card the contract is charged to (docs/decisions/158-card-expiry-mirror.md):
   * null when it has none that expires (PayPal, no method); absent when the read did not ask.
   */
  cardExpiry?: { month: number; year: number } | null;
}

export interface ContractPage {
  nodes: PlatformContract[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export type PaymentMethodKind = "credit_card" | "paypal" | "shop_pay" | "other";

export interface PlatformPaymentMethod {
  id: string;
  kind: PaymentMethodKind;
  brand: string | null;
  last4: string | null;
  expiryMonth: number | null;
  expiryYear: number | null;
  paypalEmail: string | null;
}

export interface PlatformSellingPlanGroup {
  groupId: string;
  /** In the platform's order; the first is the one a single-plan form offers. */
  sellingPlans: { id: string; name: string }[];
  /** Variants the group is sold on (up to 250). */
  variantIds: string[];
}

/** Shopify's SellingPlanAnchorInput (WEEKDAY 1 = Monday; month only for YEARDAY). */
export interface PlanAnchor {
  type: "WEEKDAY" | "MONTHDAY" | "YEARDAY";
  day: number;
  month?: number | null;
  cutoffDay?: number | null;
}

/** One pricing policy: fixed (from the first cycle) or recurring (from `afterCycle`). */
export interface PlanPricingPolicy {
  kind: "fixed" | "recurring";
  adjustmentType: "PERCENTAGE" | "FIXED_AMOUNT" | "PRICE";
  /** A percentage (PERCENTAGE) or a decimal amount in the shop currency. */
  value: string;
  afterCycle?: number;
}

/** A recurring selling plan as sent to sellingPlanGroupCreate/Update (sellingPlansTo*). */
export interface PlanWrite {
  /** Set to update an existing plan. */
  id?: string;
  name: string;
  options: string[];
  description?: string | null;
  position?: number;
  interval: "DAY" | "WEEK" | "MONTH" | "YEAR";
  intervalCount: number;
  minCycles?: number | null;
  maxCycles?: number | null;
  /** Billing and delivery anchors must be equal (Shopify refuses otherwise); the port sends both as given. */
  billingAnchors: PlanAnchor[];
  deliveryAnchors: PlanAnchor[];
  cutoff?: number | null;
  preAnchorBehavior?: "ASAP" | "NEXT";
  pricingPolicies: PlanPricingPolicy[];
}

export interface PlanGroupWrite {
  name?: string;
  merchantCode?: string;
  description?: string | null;
  options?: string[];
  plansToCreate?: PlanWrite[];
  plansToUpdate?: PlanWrite[];
  plansToDelete?: string[];
}

export interface PlatformProductPlans {
  productId: string;
  groups: Omit<PlatformSellingPlanGroup, "variantIds">[];
}

export interface MetafieldInput {
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export interface MetafieldDefinitionSpec {
  name: string;
  namespace: string;
  key: string;
  type: string;
  ownerType: "PRODUCT";
  description?: string;
  access: { storefront: "PUBLIC_READ" | "NONE" };
}

export interface PlatformVariant {
  id: string;
  productId: string;
  title: string;
  productTitle: string;
  price: string;
  imageUrl: string | null;
  available: boolean;
}

export interface PlatformShop {
  id: string;
  name: string;
  myshopifyDomain: string;
  currencyCode: string;
  planDisplayName: string;
  partnerDevelopment: boolean;
  /** The shop's IANA time zone: the calendar plan anchors count in. */
  ianaTimezone: string;
}

/** A delivery address as the app writes it (MailingAddressInput, with ISO codes). Empty names are left out. */
export interface ShippingAddressInput {
  firstName: string | null;
  lastName: string | null;
  address1: string;
  address2: string | null;
  city: string;
  provinceCode: string | null;
  countryCode: string;
  zip: string;
}

export interface PlatformAddress {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCode: string | null;
  phone: string | null;
}

/** A contract's owner, status and shipping address (null when it does not ship or has none). */
export interface ContractDelivery {
  id: string;
  status: ContractStatus;
  customerId: string | null;
  address: PlatformAddress | null;
}

/** Protected customer data: read only for the migration export (read:customers). */
export interface PlatformCustomer {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  /** The customer's default address, used as the shipping address. */
  shippingAddress: PlatformAddress | null;
}

/** Shopify's CustomerEmailAddressMarketingState (Admin API 2026-10). */
export type MarketingState = "INVALID" | "NOT_SUBSCRIBED" | "PENDING" | "SUBSCRIBED" | "UNSUBSCRIBED";

/** A customer's default e-mail address and its marketing consent; both null without an address. */
export interface CustomerConsent {
  id: string;
  email: string | null;
  marketingState: MarketingState | null;
}

/** A percentage-off code for one customer, used once (discountCodeBasicCreate). */
export interface NewCodeDiscount {
  title: string;
  code: string;
  customerId: string;
  /** Whole percent, 1-100. */
  percent: number;
  startsAt: string;
  endsAt: string | null;
}

/** A contract as a win-back clones it: lines, plan, policies, payment method, shipping address. */
export interface CloneSource {
  contract: PlatformContract;
  paymentMethodId: string | null;
  shippingAddress: PlatformAddress | null;
}

/** Who a customer is, for the merchant's eyes only (never stored: docs/decisions/134). */
export type CustomerName = Pick<PlatformCustomer, "id" | "email" | "firstName" | "lastName">;

/** Shopify Billing: a recurring app charge to request (appSubscriptionCreate). */
export interface AppChargeRequest {
  name: string;
  /** Decimal string, e.g. "49.00". */
  amount: string;
  currencyCode: string;
  interval: "EVERY_30_DAYS" | "ANNUAL";
  returnUrl: string;
  /** Test charges bill nothing; development stores accept only those. */
  test: boolean;
}

export interface AppChargeCreated {
  id: string;
  /** Where the merchant approves or declines the charge (Shopify's page). */
  confirmationUrl: string;
}

export interface AppCharge {
  id: string;
  name: string;
  status: string;
  test: boolean;
  currentPeriodEnd: string | null;
}

/** A customer to create (customerCreate, then customerAddressCreate for the address). */
export interface NewCustomer {
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  address: PlatformAddress | null;
}

/** A payment method held by the previous processor (customerPaymentMethodRemoteCreate). */
export interface RemotePaymentReference {
  gateway: "stripe" | "braintree" | "authorize_net";
  /** The processor's customer (Stripe customer, Braintree customer, Authorize.net profile). */
  customerId: string;
  /** The processor's payment method (Stripe payment method, Braintree token, Authorize.net payment profile). */
  paymentMethodId: string;
}

/** A service-owned contract to create in one call (subscriptionContractAtomicCreate). */
export interface NewContract {
  customerId: string;
  currencyCode: string;
  status: "ACTIVE" | "PAUSED" | "CANCELLED" | "EXPIRED" | "FAILED";
  nextBillingDate: string;
  interval: BillingInterval;
  intervalCount: number;
  /** Null for manual / invoice billing. */
  paymentMethodId: string | null;
  shippingAddress: PlatformAddress | null;
  lines: { variantId: string; quantity: number; priceAmount: string; sellingPlanId: string | null }[];
  /** Contract custom attributes (the import key rides here). */
  attributes: Record<string, string>;
}

/** A billing attempt as subscriptionBillingAttemptCreate answers it (docs/decisions/080). */
export interface PlatformBillingAttempt {
  id: string;
  idempotencyKey: string;
  createdAt: string;
  /** Usually "pending": the outcome arrives by subscription_billing_attempts/* webhook. */
  state: "pending" | "succeeded" | "failed" | "challenged";
}

/** A billing attempt's state as subscriptionBillingAttempt answers it (docs/decisions/080). */
export interface PlatformBillingAttemptOutcome {
  id: string;
  idempotencyKey: string;
  contractId: string;
  state: PlatformBillingAttempt["state"];
  orderId: string | null;
  /** The failed attempt's error code (Shopify's payment, general or inventory error code). */
  errorCode: string | null;
}

/** A bulk query operation as Shopify reports it (docs/decisions/097-bulk-reads.md). */
export interface PlatformBulkOperation {
  id: string;
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELING" | "CANCELED" | "EXPIRED";
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  /** The JSONL result once COMPLETED; null when the query found nothing. */
  url: string | null;
  query: string;
}

/** What a line edit may change; customAttributes replaces the line's whole list. */
export interface LineChange {
  quantity?: number;
  variantId?: string;
  customAttributes?: { key: string; value: string }[];
}

export interface ShopifyPort {
  readonly shop: string;
  getShop(): Promise<PlatformShop>;
  /** Null when missing or owned by another app (read_own_subscription_contracts hides those). */
  getContract(contractGid: string): Promise<PlatformContract | null>;
  /** This app's contracts only, ordered by id, for reconciliation. */
  listContracts(args: { first: number; after?: string | null }): Promise<ContractPage>;
  pauseContract(gid: string): Promise<{ id: string; status: ContractStatus }>;
  activateContract(gid: string): Promise<{ id: string; status: ContractStatus }>;
  cancelContract(gid: string): Promise<{ id: string; status: ContractStatus }>;
  skipBillingCycle(
    gid: string,
    selector: { index?: number; date?: string },
  ): Promise<{ cycleIndex: number; skipped: boolean; billingAttemptExpectedDate: string }>;
  setNextBillingDate(gid: string, dateIso: string): Promise<{ id: string; nextBillingDate: string }>;
  /**
   * Draft → line update → commit; any refusal abandons the draft, so nothing changes.
   * customAttributes replaces the line's attribute list (the build-a-box pick rides on it).
   */
  updateLine(gid: string, lineGid: string, change: LineChange): Promise<PlatformLine>;
  /** Draft → delivery method's shipping address → commit (a gift's claim); a refusal changes nothing. */
  setShippingAddress(gid: string, address: ShippingAddressInput): Promise<PlatformContract>;
  /** The contract's owner, status and shipping address; null when missing or another app's. */
  getDeliveryAddress(gid: string): Promise<ContractDelivery | null>;
  /**
   * The same flow when the caller picks the line from what the draft holds: the draft opens with
   * its lines, `choose` names the line and the change (throwing abandons the draft, nothing
   * changes), then line update and commit. One contract read fewer than getContract + updateLine.
   */
  updateLineOfDraft(gid: string, choose: (lines: PlatformLine[]) => { lineId: string; change: LineChange }): Promise<PlatformLine>;
  /** Null for contracts without a vaulted method (manual / invoice billing). */
  getPaymentMethod(contractGid: string): Promise<PlatformPaymentMethod | null>;
  sendPaymentMethodUpdateEmail(paymentMethodGid: string): Promise<void>;
  /** Customer Account API; any refusal (expired, foreign, malformed token) → null. */
  customerIdForAccessToken(customerAccessToken: string): Promise<string | null>;
  /** Null when the group no longer exists (or is another app's). */
  resolveSellingPlans(groupGid: string): Promise<PlatformSellingPlanGroup | null>;
  /** Every selling plan group the product is sold on; null for an unknown product. */
  productSellingPlanGroups(productGid: string): Promise<PlatformProductPlans | null>;
  /** Whether the variant is sold on the group (false for an unknown group or variant). */
  sellingPlanGroupAppliesToVariant(groupGid: string, variantGid: string): Promise<boolean>;
  /** sellingPlanGroupCreate with the products and variants it is sold on. */
  createSellingPlanGroup(group: PlanGroupWrite, resources: { productIds: string[]; variantIds: string[] }): Promise<PlatformSellingPlanGroup>;
  /** sellingPlanGroupUpdate (sellingPlansToCreate/Update/Delete). */
  updateSellingPlanGroup(groupGid: string, group: PlanGroupWrite): Promise<PlatformSellingPlanGroup & { deletedSellingPlanIds: string[] }>;
  /** sellingPlanGroupDelete: the deleted group's id. */
  deleteSellingPlanGroup(groupGid: string): Promise<string>;
  /** sellingPlanGroupAdd/RemoveProducts and Add/RemoveProductVariants; answers the ids added or removed. */
  changeSellingPlanGroupResources(
    groupGid: string,
    change: "addProducts" | "removeProducts" | "addVariants" | "removeVariants",
    ids: string[],
  ): Promise<string[]>;
  setMetafields(metafields: MetafieldInput[]): Promise<void>;
  /** Starts the shop's workflows on the app's Flow trigger `handle`; userErrors throw (docs/decisions/128). */
  flowTriggerReceive(handle: string, payload: Record<string, unknown>): Promise<void>;
  /**
   * Creates the metafield definition, or sets the access of the existing one (same owner type,
   * namespace and key). Returns the namespace as Shopify resolved it (`$app` → `app--<id>`).
   */
  ensureMetafieldDefinition(definition: MetafieldDefinitionSpec): Promise<{ namespace: string; created: boolean }>;
  /** Unknown ids are left out of the answer. */
  getVariants(variantGids: string[]): Promise<PlatformVariant[]>;
  /** Batched by 250 ids; unknown ids are left out of the answer. */
  getCustomers(customerGids: string[]): Promise<PlatformCustomer[]>;
  /** Shopify's customer search (names, e-mail; `email:<address>` exactly), at most `first` matches. */
  searchCustomers(query: string, first: number): Promise<CustomerName[]>;
  /** The customers with these e-mail addresses, by lowercased e-mail (absent: nobody has it). Batched. */
  findCustomersByEmail(emails: string[]): Promise<Map<string, string>>;
  /**
   * Creates customers (each with their default address), several per request: each answer is
   * the new id or that customer's refusal (code TAKEN when the e-mail or phone is taken).
   */
  createCustomers(customers: NewCustomer[]): Promise<({ id: string } | { error: PlatformError })[]>;
  /** A vaulted payment method (revoked ones too) with its customer, or null when the shop has none by that id. */
  getPaymentMethodOwner(paymentMethodGid: string): Promise<{ id: string; revoked: boolean; customerId: string | null; email: string | null } | null>;
  /** Vaults a remote processor reference as the customer's payment method; returns its id. */
  createRemotePaymentMethod(customerGid: string, reference: RemotePaymentReference): Promise<string>;
  /** Marketing consent of each customer (batched by 250); unknown ids are left out. */
  getMarketingConsent(customerGids: string[]): Promise<CustomerConsent[]>;
  /** discountCodeBasicCreate: the new discount's id and its code. */
  createCodeDiscount(discount: NewCodeDiscount): Promise<{ id: string; code: string }>;
  /** A contract with what cloning it needs; null when unknown or another app's. */
  getCloneSource(contractGid: string): Promise<CloneSource | null>;
  /** subscriptionContractAtomicCreate. */
  createContract(contract: NewContract): Promise<{ id: string }>;
  /** This app's contracts of the customer with their custom attributes (all pages). */
  customerContracts(customerGid: string): Promise<{ id: string; attributes: Record<string, string> }[]>;
  /** Shopify Billing: asks for a recurring charge; the merchant approves it at confirmationUrl. */
  createAppCharge(request: AppChargeRequest): Promise<AppChargeCreated>;
  /** The app's live charges (currentAppInstallation.activeSubscriptions). */
  activeAppCharges(): Promise<AppCharge[]>;
  cancelAppCharge(id: string): Promise<void>;
  /**
   * Charges the contract's billing cycle due on `cycleDate`. The same idempotency key answers the
   * attempt already made. Refusals (paused, terminated, throttled) throw PlatformError with
   * Shopify's BillingAttemptUserErrorCode as `code`.
   */
  createBillingAttempt(contractGid: string, request: { idempotencyKey: string; cycleDate: string }): Promise<PlatformBillingAttempt>;
  /** One billing attempt's state (null when Shopify does not know it). */
  getBillingAttempt(attemptGid: string): Promise<PlatformBillingAttemptOutcome | null>;
  /** Starts a bulk query; a running one is a PlatformError with code OPERATION_IN_PROGRESS. */
  runBulkQuery(query: string): Promise<PlatformBulkOperation>;
  getBulkOperation(id: string): Promise<PlatformBulkOperation | null>;
  /** The app's most recent bulk query on the shop, whatever started it. */
  currentBulkOperation(): Promise<PlatformBulkOperation | null>;
}
