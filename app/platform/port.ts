// The Shopify port: every call the app makes to the platform, bound to one shop. Domain code
// depends on this interface only; app/platform/graphql/adapter.server.ts implements it with real
// Admin GraphQL requests (answered by the simulator in dev and tests, by Shopify in production).
// Every method throws PlatformError (app/platform/errors.ts) on failure; none returns partial work.

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
  /** Draft → line update → commit; any refusal abandons the draft, so nothing changes. */
  updateLine(gid: string, lineGid: string, change: { quantity?: number; variantId?: string }): Promise<PlatformLine>;
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
  setMetafields(metafields: MetafieldInput[]): Promise<void>;
  /** Unknown ids are left out of the answer. */
  getVariants(variantGids: string[]): Promise<PlatformVariant[]>;
  /** Batched by 250 ids; unknown ids are left out of the answer. */
  getCustomers(customerGids: string[]): Promise<PlatformCustomer[]>;
  /** Shopify Billing: asks for a recurring charge; the merchant approves it at confirmationUrl. */
  createAppCharge(request: AppChargeRequest): Promise<AppChargeCreated>;
  /** The app's live charges (currentAppInstallation.activeSubscriptions). */
  activeAppCharges(): Promise<AppCharge[]>;
  cancelAppCharge(id: string): Promise<void>;
}
