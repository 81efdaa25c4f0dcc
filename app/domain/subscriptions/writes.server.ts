// The six subscription writes (/docs#tag/Admin-API:-Subscription-writes;
// docs/decisions/023-subscription-writes.md). Each one:
//   1. proves ownership against the mirror (service-created contract of this shop), else 404;
//   2. validates its input and the target (pre-mutation: nothing spent, nothing called);
//   3. calls `beforeMutation` (the idempotency claim, carrying the write's intent), then the one
//      platform mutation;
//   4. maps a platform refusal mechanically (field -> 400 invalid_request, none -> 409);
//   5. reconciles the mirror and answers the receipt; if the reconcile fails, the receipt
//      carries the pre-write mirror values (still 200).
// Writes record no event: the inbound subscription_contracts/update webhook announces the change.
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import { prisma } from "../../db.server";
import { platformFor } from "../../platform/index.server";
import { platformApiError } from "../shared/platform-call.server";
import type { PlatformLine, ShopifyPort } from "../../platform/port";
import { reconcileContract } from "./mirror.server";
import { iso, parseDecimalToMinor } from "../shared/money.server";
import { scheduleForContract, shopTimeZone } from "../catalog/selling-plans.server";
import { addMonths, rescheduleTarget, skipTarget, FIVE_YEARS_MONTHS } from "../shared/schedule";
import { queueSkipConfirmation } from "./skip-confirmation.server";
import { contractNotFound, findOwnedContract, type LineView, type OwnedContract } from "./reads.server";
import { undoableSkip } from "./history.server";
import { auditOutcome, diffFields, type Changes } from "../audit/audit.server";

export type WriteAction = "pause" | "resume" | "cancel" | "skip" | "reschedule" | "update_line";

/** What a write did (the surfaces shape it: app/surfaces/admin/wire.ts `receiptJson`). */
export interface WriteReceipt {
  contractGid: string;
  action: WriteAction;
  previousStatus: string;
  status: string;
  nextBillingAt: Date | null;
  /** update_line only: the line as it is now, with the currency of its price. */
  line: ReceiptLine | null;
  /** For the audit trail's before/after (not on the wire). */
  previousNextBillingAt?: Date | null;
  previousLine?: { quantity: number; variantGid: string | null } | null;
}

export type ReceiptLine = LineView & { currencyCode: string };

/**
 * What a write is about to do, stored with its idempotency claim: if the process dies before it
 * stores the outcome, a retry re-reads the contract from the platform and settleSubscriptionWrite
 * tells from this whether the mutation was applied (docs/decisions/035-idempotency-leases.md).
 */
export interface WriteIntent {
  kind: "subscription_write";
  action: WriteAction;
  shopDomain: string;
  contractGid: string;
  previousStatus: string;
  /** skip and reschedule: the next billing date the mutation sets. */
  nextBillingAt?: string;
  /** update_line: the line and the change. */
  lineGid?: string;
  quantity?: number;
  variantId?: string;
}

export interface WriteContext {
  shopId: string;
  shopDomain: string;
  contractGid: string;
  /** The idempotency claim; called after validation, right before the platform mutation. */
  beforeMutation?: (intent: WriteIntent) => Promise<void>;
  now?: Date;
}

// A write's 500 is replayed for the same Idempotency-Key, so the hint names the way out.
const WRITE_UNAVAILABLE = "The platform did not answer. Retry later (a new Idempotency-Key runs the write again).";
const platformFailure = (err: unknown) => platformApiError(err, WRITE_UNAVAILABLE);

async function owned(ctx: WriteContext): Promise<OwnedContract> {
  const c = await findOwnedContract(ctx.shopId, ctx.contractGid);
  if (!c) throw contractNotFound(ctx.contractGid);
  return c;
}

async function port(ctx: WriteContext): Promise<ShopifyPort> {
  try {
    return await platformFor(ctx.shopDomain);
  } catch (err) {
    throw platformFailure(err);
  }
}

function intentOf(ctx: WriteContext, action: WriteAction, before: OwnedContract, more: Partial<WriteIntent> = {}): WriteIntent {
  return { kind: "subscription_write", action, shopDomain: ctx.shopDomain, contractGid: ctx.contractGid, previousStatus: before.status, ...more };
}

async function mutate<T>(ctx: WriteContext, intent: WriteIntent, fn: () => Promise<T>): Promise<T> {
  await ctx.beforeMutation?.(intent);
  try {
    return await fn();
  } catch (err) {
    throw platformFailure(err);
  }
}

/** Re-read the contract into the mirror; null when that failed (the receipt then uses `before`). */
async function reconciled(ctx: WriteContext): Promise<OwnedContract | null> {
  try {
    await reconcileContract(ctx.shopDomain, ctx.contractGid);
    return await findOwnedContract(ctx.shopId, ctx.contractGid);
  } catch (err) {
    log.warn("mirror reconcile after a write failed; answering with pre-write values", { err, contract: ctx.contractGid });
    return null;
  }
}

function receipt(action: WriteAction, before: OwnedContract, after: OwnedContract | null, line: ReceiptLine | null = null): WriteReceipt {
  const c = after ?? before;
  const prevLine = line ? before.lines.find((l) => l.lineGid === line.lineGid) : undefined;
  return {
    contractGid: before.contractGid,
    action,
    previousStatus: before.status,
    status: c.status,
    nextBillingAt: c.nextBillingAt,
    line,
    previousNextBillingAt: before.nextBillingAt,
    previousLine: prevLine ? { quantity: prevLine.quantity, variantGid: prevLine.variantGid } : null,
  };
}

/** What a write changed, for the audit trail: status, next charge, and a line's quantity and variant. */
function writeChanges(r: WriteReceipt): Changes {
  return diffFields(
    {
      status: r.previousStatus,
      next_billing_at: r.previousNextBillingAt ?? null,
      quantity: r.previousLine?.quantity ?? null,
      variant_id: r.previousLine?.variantGid ?? null,
    },
    { status: r.status, next_billing_at: r.nextBillingAt, quantity: r.line?.quantity ?? null, variant_id: r.line?.variantGid ?? null },
    ["status", "next_billing_at", "quantity", "variant_id"],
  );
}

/** Every write leaves one audit row: its outcome once Shopify has answered (docs/decisions/125-audit-log.md). */
function audit(ctx: WriteContext, action: WriteAction | "skip_undone", run: () => Promise<WriteReceipt>): Promise<WriteReceipt> {
  return auditOutcome({ shopId: ctx.shopId, action: `subscription.${action}`, target: { type: "subscription", id: ctx.contractGid } }, run, writeChanges);
}

const receiptLine = (l: LineView, currencyCode: string): ReceiptLine => ({
  lineGid: l.lineGid,
  productGid: l.productGid,
  variantGid: l.variantGid,
  title: l.title,
  variantTitle: l.variantTitle,
  quantity: l.quantity,
  priceCents: l.priceCents,
  sellingPlanGid: l.sellingPlanGid,
  currencyCode,
});

const conflict = (message: string) => new ApiError("state_conflict", message);

export function pauseSubscription(ctx: WriteContext): Promise<WriteReceipt> {
  return audit(ctx, "pause", async () => {
    const before = await owned(ctx);
    const p = await port(ctx);
    await mutate(ctx, intentOf(ctx, "pause", before), () => p.pauseContract(ctx.contractGid)); // already paused: a no-op success
    return receipt("pause", before, await reconciled(ctx));
  });
}

export function resumeSubscription(ctx: WriteContext): Promise<WriteReceipt> {
  return audit(ctx, "resume", async () => {
    const before = await owned(ctx);
    const p = await port(ctx);
    await mutate(ctx, intentOf(ctx, "resume", before), () => p.activateContract(ctx.contractGid));
    return receipt("resume", before, await reconciled(ctx));
  });
}

export function cancelSubscription(ctx: WriteContext): Promise<WriteReceipt> {
  return audit(ctx, "cancel", async () => {
    const before = await owned(ctx);
    // Cancelled is terminal (and so is expired): 409 whatever the platform would say to a repeat.
    if (before.status === "CANCELLED" || before.status === "EXPIRED") {
      throw conflict(`The subscription is already ${before.status.toLowerCase()}.`);
    }
    const p = await port(ctx);
    await mutate(ctx, intentOf(ctx, "cancel", before), () => p.cancelContract(ctx.contractGid)); // the platform's own refusal maps to 409 too
    return receipt("cancel", before, await reconciled(ctx));
  });
}

async function scheduleOf(ctx: WriteContext, c: OwnedContract) {
  const s = await scheduleForContract(ctx.shopId, c);
  if (!s) throw conflict("The contract's billing interval is unknown, so its next charge cannot be moved.");
  return s;
}

/** Moves the next charge one billing interval later (the next anchor on an anchored plan). */
export function skipSubscription(ctx: WriteContext): Promise<WriteReceipt> {
  return audit(ctx, "skip", async () => {
    const before = await owned(ctx);
    if (before.status !== "ACTIVE") throw conflict(`Only an active subscription can skip a charge (this one is ${before.status}).`);
    if (!before.nextBillingAt) throw conflict("The subscription has no upcoming charge to skip.");
    const target = skipTarget(before.nextBillingAt, await scheduleOf(ctx, before), await shopTimeZone(ctx.shopId));
    const p = await port(ctx);
    const intent = intentOf(ctx, "skip", before, { nextBillingAt: target.toISOString() });
    await mutate(ctx, intent, () => p.setNextBillingDate(ctx.contractGid, target.toISOString()));
    const after = await reconciled(ctx);
    await confirmSkip(ctx, before, target);
    return receipt("skip", before, after);
  });
}

/** The skip confirmation (skip-confirmation.server.ts), best effort once the platform write succeeded. */
async function confirmSkip(ctx: WriteContext, before: OwnedContract, target: Date): Promise<void> {
  try {
    await queueSkipConfirmation({ id: ctx.shopId, domain: ctx.shopDomain }, ctx.contractGid, before.nextBillingAt ?? target, target);
  } catch (err) {
    log.warn("could not queue the skip confirmation", { err, contract: ctx.contractGid });
  }
}

/**
 * Undoes the app's last skip (docs/decisions/152-skip-undo.md): the next charge goes back to the
 * date the skip moved it from, while nothing has moved it since and that date is still ahead.
 * Audited as `subscription.skip_undone`, which also closes it: a second undo is a 409.
 */
export function undoSkip(ctx: WriteContext): Promise<WriteReceipt> {
  return audit(ctx, "skip_undone", async () => {
    const before = await owned(ctx);
    const undo = await undoableSkip(ctx.shopId, before, ctx.now);
    if (!undo) throw conflict("There is no skip to undo: the next charge has moved since, or the skipped date has passed.");
    const p = await port(ctx);
    await mutate(ctx, intentOf(ctx, "reschedule", before, { nextBillingAt: undo.restoreTo.toISOString() }), () =>
      p.setNextBillingDate(ctx.contractGid, undo.restoreTo.toISOString()),
    );
    return receipt("reschedule", before, await reconciled(ctx));
  });
}

/** The reschedule window (docs/decisions/023-subscription-writes.md): the date must be in the future and within five years. */
export function checkRescheduleDate(d: Date, now = new Date()): void {
  if (d.getTime() <= now.getTime()) throw new ApiError("invalid_request", "next_billing_at must be in the future.");
  if (d.getTime() > addMonths(now, FIVE_YEARS_MONTHS).getTime()) throw new ApiError("invalid_request", "next_billing_at must be within five years.");
}

/** Sets the next charge to the date (the first anchor on or after it on an anchored plan). */
export function rescheduleSubscription(ctx: WriteContext & { nextBillingAt: Date }): Promise<WriteReceipt> {
  return audit(ctx, "reschedule", async () => {
    const requested = ctx.nextBillingAt;
    checkRescheduleDate(requested, ctx.now);
    const before = await owned(ctx);
    if (before.status !== "ACTIVE") throw conflict(`Only an active subscription can be rescheduled (this one is ${before.status}).`);
    const target = rescheduleTarget(requested, await scheduleOf(ctx, before), await shopTimeZone(ctx.shopId));
    const p = await port(ctx);
    const intent = intentOf(ctx, "reschedule", before, { nextBillingAt: target.toISOString() });
    await mutate(ctx, intent, () => p.setNextBillingDate(ctx.contractGid, target.toISOString()));
    return receipt("reschedule", before, await reconciled(ctx));
  });
}

/** What a line edit changes (at least one of the two; the Admin API's body schema ensures it). */
export interface LineChange {
  quantity?: number;
  variantId?: string;
}

async function lineGroupGid(shopId: string, c: OwnedContract, sellingPlanGid: string | null): Promise<string | null> {
  if (sellingPlanGid) {
    const plan = await prisma.sellingPlan.findFirst({
      where: { sellingPlanGid, group: { shopId } },
      select: { group: { select: { groupGid: true } } },
    });
    if (plan) return plan.group.groupGid;
  }
  return c.sellingPlanGroupGid;
}

function platformLine(l: PlatformLine, currencyCode: string): ReceiptLine {
  return {
    lineGid: l.id,
    productGid: l.productId,
    variantGid: l.variantId,
    title: l.title,
    variantTitle: l.variantTitle,
    quantity: l.quantity,
    priceCents: parseDecimalToMinor(l.priceAmount, currencyCode),
    sellingPlanGid: l.sellingPlanId,
    currencyCode,
  };
}

/** Edits one line through the platform's draft flow (all or nothing); the line keeps its plan. */
export function updateSubscriptionLine(ctx: WriteContext & { lineGid: string; change: LineChange }): Promise<WriteReceipt> {
  return audit(ctx, "update_line", async () => {
    const change = ctx.change;
    const before = await owned(ctx);
    const line = before.lines.find((l) => l.lineGid === ctx.lineGid);
    if (!line) throw new ApiError("not_found", `No line ${ctx.lineGid} on subscription ${ctx.contractGid}`);
    const p = await port(ctx);
    if (change.variantId && change.variantId !== line.variantGid) {
      const group = await lineGroupGid(ctx.shopId, before, line.sellingPlanGid);
      if (!group || !(await p.sellingPlanGroupAppliesToVariant(group, change.variantId))) {
        throw new ApiError("invalid_request", `variant_id ${change.variantId} is not offered by the line's selling plan group.`);
      }
    }
    const intent = intentOf(ctx, "update_line", before, { lineGid: ctx.lineGid, quantity: change.quantity, variantId: change.variantId });
    const updated = await mutate(ctx, intent, () => p.updateLine(ctx.contractGid, ctx.lineGid, change));
    const after = await reconciled(ctx);
    let lineOut: ReceiptLine;
    if (after) {
      const mirrored = after.lines.find((l) => l.lineGid === updated.id);
      lineOut = mirrored ? receiptLine(mirrored, after.currencyCode) : platformLine(updated, after.currencyCode);
    } else {
      lineOut = receiptLine(line, before.currencyCode); // pre-write values (rule 6)
    }
    return receipt("update_line", before, after, lineOut);
  });
}

/**
 * Settles a write whose process died after claiming its key: re-reads the contract from the
 * platform (into the mirror) and answers the receipt the write would have answered if its
 * mutation is visible there, or null if it is not (then the retry runs the write itself).
 * Throws when the platform cannot be read (the retry is answered 409 and may try again).
 */
export async function settleSubscriptionWrite(shopId: string, intent: WriteIntent): Promise<WriteReceipt | null> {
  await reconcileContract(intent.shopDomain, intent.contractGid);
  const after = await findOwnedContract(shopId, intent.contractGid);
  if (!after) return null;
  const line = intent.lineGid ? after.lines.find((l) => l.lineGid === intent.lineGid) : undefined;
  const applied: Record<WriteAction, () => boolean> = {
    pause: () => after.status === "PAUSED",
    resume: () => after.status === "ACTIVE",
    cancel: () => after.status === "CANCELLED",
    skip: () => iso(after.nextBillingAt) === intent.nextBillingAt,
    reschedule: () => iso(after.nextBillingAt) === intent.nextBillingAt,
    update_line: () =>
      !!line &&
      (intent.quantity === undefined || line.quantity === intent.quantity) &&
      (intent.variantId === undefined || line.variantGid === intent.variantId),
  };
  if (!applied[intent.action]()) return null;
  const before = { ...after, status: intent.previousStatus } as OwnedContract;
  return receipt(intent.action, before, after, line ? receiptLine(line, after.currencyCode) : null);
}
