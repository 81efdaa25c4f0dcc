// The Customer API's portal actions (docs/decisions/070-customer-api-ownership.md). Every action
// on one contract first asks the platform who owns it (customerContract): the mirror is never
// the authority for a write. The two analytics writes (cancel reason, save event) are the
// exception the contract itself makes: they check the mirror row (shop, contract, customer),
// fail closed, and work on a cancelled contract.
import { auditOutcome, diffFields } from "../audit/audit.server";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import { platformFor } from "../../platform/index.server";
import type { PlatformContract, PlatformLine, PlatformPaymentMethod, ShopifyPort } from "../../platform/port";
import { reconcileContract } from "../subscriptions/mirror.server";
import { formatMinor, iso } from "../shared/money.server";
import { platformApiError, platformErrors } from "../shared/platform-call.server";
import { addMonths, civilIso, parseCivil, rescheduleDate } from "../shared/schedule";
import { scheduleForContract } from "../catalog/selling-plans.server";
import { portalConfigFor } from "../shop/shops.server";

/** Who is asking: the verified session's customer on the publishable key's shop. */
export interface PortalContext {
  shopId: string;
  shopDomain: string;
  customerId: string;
  now?: Date;
}

/** Edits are refused on a contract that will never bill again. */
const TERMINAL = new Set(["CANCELLED", "EXPIRED"]);

async function portOf(shopDomain: string): Promise<ShopifyPort> {
  return platformErrors(() => platformFor(shopDomain));
}

/**
 * The platform's answer to "does this customer own this contract?", asked before any read or
 * mutation: unknown on the shop (or another app's) → 404 not_found; another customer's → 403
 * forbidden; for an edit, a cancelled or expired contract → 409 state_conflict.
 */
export async function customerContract(
  ctx: PortalContext,
  contractGid: string,
  purpose: "read" | "edit",
): Promise<{ port: ShopifyPort; contract: PlatformContract }> {
  const port = await portOf(ctx.shopDomain);
  const contract = await platformErrors(() => port.getContract(contractGid));
  return { port, contract: assertCustomerOwns(ctx, contractGid, contract, purpose) };
}

/** The same three answers over any platform read of the contract's owner and status. */
export function assertCustomerOwns<C extends Pick<PlatformContract, "customerId" | "status">>(
  ctx: PortalContext,
  contractGid: string,
  contract: C | null,
  purpose: "read" | "edit",
): C {
  if (!contract) throw new ApiError("not_found", `No subscription ${contractGid}`);
  if (contract.customerId !== ctx.customerId) throw new ApiError("forbidden", "This subscription belongs to another customer.");
  if (purpose === "edit" && TERMINAL.has(contract.status)) {
    throw new ApiError("state_conflict", `The subscription is ${contract.status.toLowerCase()} and can no longer be changed.`);
  }
  return contract;
}

/** After a write the mirror catches up at once; a failure here is logged, never the caller's. */
export async function refreshMirror(shopDomain: string, contractGid: string): Promise<void> {
  try {
    await reconcileContract(shopDomain, contractGid);
  } catch (err) {
    log.warn("mirror reconcile after a customer write failed; the contract webhook will bring it", { err, contract: contractGid });
  }
}

// ---- GET /subscriptions --------------------------------------------------------------------------

export interface SubscriptionSummary {
  contract_id: string;
  status: string;
  order_name: string | null;
  product_title: string | null;
  frequency_label: string | null;
  next_billing_at: string | null;
  charge_amount: number | null;
  currency_code: string;
  selling_plan_id: string | null;
  selling_plan_group_id: string | null;
  created_at: string;
}

/** A customer rarely has more; the list is one page by design (docs/decisions/070). */
export const MAX_CUSTOMER_SUBSCRIPTIONS = 100;

/** The session customer's summaries from the mirror, newest first. Nothing else can widen it. */
export async function listCustomerSubscriptions(ctx: PortalContext): Promise<SubscriptionSummary[]> {
  const rows = await prisma.contract.findMany({
    where: { shopId: ctx.shopId, customerGid: ctx.customerId, createdByService: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: MAX_CUSTOMER_SUBSCRIPTIONS,
  });
  return rows.map((r) => ({
    contract_id: r.contractGid,
    status: r.status,
    order_name: r.orderName,
    product_title: r.productTitle,
    frequency_label: r.frequencyLabel,
    next_billing_at: iso(r.nextBillingAt),
    // A JSON number: the exact decimal of the minor units, from the one money conversion (docs/decisions/020).
    charge_amount: r.chargeAmountCents === null ? null : Number(formatMinor(r.chargeAmountCents, r.currencyCode)),
    currency_code: r.currencyCode,
    selling_plan_id: r.sellingPlanGid,
    selling_plan_group_id: r.sellingPlanGroupGid,
    created_at: r.createdAt.toISOString(),
  }));
}

// ---- payment method -------------------------------------------------------------------------------

export type ExpiryState = "valid" | "expiring_soon" | "expired" | "not_applicable";

export interface PaymentMethodView {
  kind: string;
  brand: string | null;
  last4: string | null;
  expiry_month: number | null;
  expiry_year: number | null;
  paypal_email: string | null;
  expiry_state: ExpiryState;
}

/** A card is good through the last day of its expiry month; "soon" is the last 60 days of that. */
export const EXPIRING_SOON_DAYS = 60;

export function expiryState(month: number | null, year: number | null, now = new Date()): ExpiryState {
  if (!month || !year) return "not_applicable";
  const end = Date.UTC(year, month, 1); // first instant after the expiry month
  if (now.getTime() >= end) return "expired";
  if (end - now.getTime() <= EXPIRING_SOON_DAYS * 86_400_000) return "expiring_soon";
  return "valid";
}

function paymentMethodView(m: PlatformPaymentMethod, now: Date): PaymentMethodView {
  // The method's own id is deliberately left out: it is the platform's handle, not the shopper's.
  return {
    kind: m.kind,
    brand: m.brand,
    last4: m.last4,
    expiry_month: m.expiryMonth,
    expiry_year: m.expiryYear,
    paypal_email: m.paypalEmail,
    expiry_state: expiryState(m.expiryMonth, m.expiryYear, now),
  };
}

export async function customerPaymentMethod(ctx: PortalContext & { contractGid: string }): Promise<PaymentMethodView | null> {
  const { port } = await customerContract(ctx, ctx.contractGid, "read");
  const method = await platformErrors(() => port.getPaymentMethod(ctx.contractGid));
  return method ? paymentMethodView(method, ctx.now ?? new Date()) : null;
}

/** Asks the platform to e-mail the shopper a secure update link for the method re-read here. */
export async function sendPaymentUpdateEmail(ctx: PortalContext & { contractGid: string }): Promise<void> {
  const { port } = await customerContract(ctx, ctx.contractGid, "edit");
  const method = await platformErrors(() => port.getPaymentMethod(ctx.contractGid));
  if (!method) throw new ApiError("invalid_request", "This subscription has no saved payment method (it is billed manually or by invoice).");
  try {
    await port.sendPaymentMethodUpdateEmail(method.id);
  } catch (err) {
    log.error("the platform refused the payment-method update e-mail", { err, contract: ctx.contractGid });
    throw new ApiError("internal_error", "The update e-mail could not be sent. Retry later.");
  }
}

// ---- lines -------------------------------------------------------------------------------------------

export interface SwapOption {
  variant_id: string;
  variant_title: string;
  product_title: string;
  image_url: string | null;
  price: string;
  available: boolean;
}

function findLine(contract: PlatformContract, lineGid: string): PlatformLine {
  const line = contract.lines.find((l) => l.id === lineGid);
  if (!line) throw new ApiError("not_found", `No line ${lineGid} on subscription ${contract.id}`);
  return line;
}

/** The selling plan group a line subscribes under: its plan's group, else the contract's. */
async function lineGroupGid(shopId: string, contractGid: string, line: PlatformLine): Promise<string | null> {
  if (line.sellingPlanId) {
    const plan = await prisma.sellingPlan.findFirst({
      where: { sellingPlanGid: line.sellingPlanId, group: { shopId } },
      select: { group: { select: { groupGid: true } } },
    });
    if (plan) return plan.group.groupGid;
  }
  const mirrored = await prisma.contract.findFirst({ where: { shopId, contractGid }, select: { sellingPlanGroupGid: true } });
  return mirrored?.sellingPlanGroupGid ?? null;
}

/** Other variants the line's selling plan group is sold on, live from the platform. */
export async function swapOptions(ctx: PortalContext & { contractGid: string; lineGid: string }): Promise<SwapOption[]> {
  const { port, contract } = await customerContract(ctx, ctx.contractGid, "read");
  const line = findLine(contract, ctx.lineGid);
  const groupGid = await lineGroupGid(ctx.shopId, ctx.contractGid, line);
  if (!groupGid) return [];
  return platformErrors(async () => {
    const group = await port.resolveSellingPlans(groupGid);
    if (!group) return [];
    const ids = group.variantIds.filter((id) => id !== line.variantId);
    if (ids.length === 0) return [];
    const variants = await port.getVariants(ids);
    return variants.map((v) => ({
      variant_id: v.id,
      variant_title: v.title,
      product_title: v.productTitle,
      image_url: v.imageUrl,
      price: v.price,
      available: v.available,
    }));
  });
}

/**
 * Quantity and/or variant of one line through the platform's draft, update and commit. Every
 * refusal (a user error at any of the three steps) is one 400 with the platform's message, and
 * nothing is committed: no partial success.
 */
export function updateCustomerLine(ctx: PortalContext & { contractGid: string; lineGid: string; quantity?: number; variantId?: string }): Promise<void> {
  // A customer's subscription write leaves one audit row like the Admin API's (docs/decisions/125-audit-log.md).
  // The before is the line as the platform had it just before the edit.
  return auditOutcome(
    { shopId: ctx.shopId, action: "subscription.update_line", target: { type: "subscription", id: ctx.contractGid } },
    () => updateCustomerLineNow(ctx),
    (before) => diffFields(before, { quantity: ctx.quantity ?? before.quantity, variant_id: ctx.variantId ?? before.variant_id }, ["quantity", "variant_id"]),
  ).then(() => undefined);
}

type LineBefore = { quantity: number; variant_id: string | null };

async function updateCustomerLineNow(
  ctx: PortalContext & { contractGid: string; lineGid: string; quantity?: number; variantId?: string },
): Promise<LineBefore> {
  const { port, contract } = await customerContract(ctx, ctx.contractGid, "edit");
  const line = findLine(contract, ctx.lineGid);
  const before: LineBefore = { quantity: line.quantity, variant_id: line.variantId };
  const variantId = ctx.variantId;
  if (variantId && variantId !== line.variantId) {
    const groupGid = await lineGroupGid(ctx.shopId, ctx.contractGid, line);
    const applies = !!groupGid && (await platformErrors(() => port.sellingPlanGroupAppliesToVariant(groupGid, variantId)));
    if (!applies) throw new ApiError("invalid_request", `product_variant_id ${variantId} is not offered by the line's selling plan group.`);
  }
  try {
    await port.updateLine(ctx.contractGid, ctx.lineGid, { quantity: ctx.quantity, variantId: ctx.variantId });
  } catch (err) {
    const mapped = platformApiError(err);
    if (mapped instanceof ApiError && mapped.code === "state_conflict")
      throw new ApiError("invalid_request", `The platform refused the edit: ${mapped.message}`);
    throw mapped;
  }
  await refreshMirror(ctx.shopDomain, ctx.contractGid);
  return before;
}

// ---- reschedule --------------------------------------------------------------------------------------

/** YYYY-MM-DD at noon UTC, so the calendar day is the same in every shopper's time zone. */
export function noonUtc(date: string): Date {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

/** The day a reschedule sets: the first anchor on or after `date` on an anchored plan (the schedule engine). */
async function anchoredDay(ctx: PortalContext & { contractGid: string }, date: string): Promise<string> {
  const day = parseCivil(date);
  if (!day) throw new ApiError("invalid_request", "date must be a calendar day (YYYY-MM-DD).");
  const mirrored = await prisma.contract.findFirst({
    where: { shopId: ctx.shopId, contractGid: ctx.contractGid },
    select: { sellingPlanGroupGid: true, billingInterval: true, billingIntervalCount: true },
  });
  const schedule = mirrored ? await scheduleForContract(ctx.shopId, mirrored) : null;
  return schedule ? civilIso(rescheduleDate(day, schedule)) : date;
}

export function rescheduleCustomerSubscription(ctx: PortalContext & { contractGid: string; date: string }): Promise<{ nextBillingAt: string }> {
  return auditOutcome(
    { shopId: ctx.shopId, action: "subscription.reschedule", target: { type: "subscription", id: ctx.contractGid } },
    () => rescheduleCustomerNow(ctx),
    (r) => diffFields({ next_billing_at: r.before }, { next_billing_at: r.nextBillingAt }, ["next_billing_at"]),
  ).then(({ nextBillingAt }) => ({ nextBillingAt }));
}

async function rescheduleCustomerNow(ctx: PortalContext & { contractGid: string; date: string }): Promise<{ nextBillingAt: string; before: string | null }> {
  const now = ctx.now ?? new Date();
  const target = noonUtc(await anchoredDay(ctx, ctx.date));
  const { reschedule_max_months: months } = await portalConfigFor(ctx.shopId);
  if (target.getTime() <= now.getTime()) throw new ApiError("invalid_request", "date must be a day in the future.");
  const latest = addMonths(now, months);
  if (target.getTime() > latest.getTime()) {
    throw new ApiError("invalid_request", `date must be within ${months} months (on or before ${latest.toISOString().slice(0, 10)}).`);
  }
  const { port, contract } = await customerContract(ctx, ctx.contractGid, "edit");
  const result = await platformErrors(() => port.setNextBillingDate(ctx.contractGid, target.toISOString()));
  await refreshMirror(ctx.shopDomain, ctx.contractGid);
  // The before is the date the platform had just before the move.
  const before = contract.nextBillingDate ? new Date(contract.nextBillingDate).toISOString() : null;
  return { nextBillingAt: new Date(result.nextBillingDate).toISOString(), before };
}

// ---- cancellation save flow (mirror-checked, best effort) ---------------------------------------------

/** The mirror row of (shop, contract) that the session's customer owns: 404 if none, 403 if another's. */
async function mirroredOwnContract(ctx: PortalContext, contractGid: string) {
  const row = await prisma.contract.findFirst({
    where: { shopId: ctx.shopId, contractGid, createdByService: true },
    select: { customerGid: true, monthlyAmountCents: true, chargeAmountCents: true },
  });
  if (!row) throw new ApiError("not_found", `No subscription ${contractGid}`);
  if (row.customerGid !== ctx.customerId) throw new ApiError("forbidden", "This subscription belongs to another customer.");
  return row;
}

export async function recordCancelReason(ctx: PortalContext & { contractGid: string; reason: string }): Promise<void> {
  await mirroredOwnContract(ctx, ctx.contractGid);
  try {
    await prisma.cancelReason.create({ data: { shopId: ctx.shopId, contractGid: ctx.contractGid, customerGid: ctx.customerId, reason: ctx.reason } });
  } catch (err) {
    log.warn("cancel reason not stored (best effort)", { err, contract: ctx.contractGid });
  }
}

export const SAVE_OFFERS = ["pause", "skip", "discount"] as const;
export type SaveOffer = (typeof SAVE_OFFERS)[number];

/** Anything but "accepted" counts as "shown". */
export function saveEventType(raw: string | undefined): "shown" | "accepted" {
  return raw === "accepted" ? "accepted" : "shown";
}

/**
 * An accepted offer preserves the contract's monthly revenue as the mirror holds it (a shown one
 * preserves nothing); the client never sends an amount.
 */
export function preservedRevenueCents(eventType: "shown" | "accepted", row: { monthlyAmountCents: number | null; chargeAmountCents: number | null }): number {
  if (eventType !== "accepted") return 0;
  return row.monthlyAmountCents ?? row.chargeAmountCents ?? 0;
}

export async function recordSaveEvent(ctx: PortalContext & { contractGid: string; offerType: SaveOffer; eventType: "shown" | "accepted" }): Promise<void> {
  const row = await mirroredOwnContract(ctx, ctx.contractGid);
  try {
    await prisma.saveEvent.create({
      data: {
        shopId: ctx.shopId,
        contractGid: ctx.contractGid,
        customerGid: ctx.customerId,
        offerType: ctx.offerType,
        eventType: ctx.eventType,
        preservedRevenueCents: preservedRevenueCents(ctx.eventType, row),
      },
    });
  } catch (err) {
    log.warn("save event not stored (best effort)", { err, contract: ctx.contractGid });
  }
}
