// The hosted portal's reads and the writes the Customer API leaves to the shopper's own Customer
// Account token (skip, pause, resume, cancel): on the storefront the app acts for the signed-in
// customer, so each write first asks the platform whether that customer owns the contract
// (customerContract, as every Customer API action does; docs/decisions/070-customer-api-ownership.md)
// and then runs the Admin API's write (app/domain/subscriptions/writes.server.ts), which reconciles
// the mirror and leaves the audit row. The merchant's HIDE list is enforced here, not only by
// leaving buttons out: the app's own credentials perform the write (docs/decisions/140-hosted-portal-app-proxy.md).
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { portalConfigFor, portalConfigView, type PortalConfigView } from "../shop/shops.server";
import { subscriptionHistory, type HistoryEntry } from "../subscriptions/history.server";
import type { OwnedContract } from "../subscriptions/reads.server";
import { cancelSubscription, pauseSubscription, resumeSubscription, skipSubscription, type WriteReceipt } from "../subscriptions/writes.server";
import { customerContract, recordCancelReason, recordSaveEvent, type PortalContext, type SaveOffer } from "./portal.server";

export type PortalActionName = "skip" | "pause" | "resume" | "cancel" | "change_date" | "edit_quantity" | "swap_product" | "edit_address";

/** The HIDE list entry that removes an action (resume follows pause: a shopper who cannot pause has nothing to resume). */
const HIDE_KEY: Record<PortalActionName, keyof PortalConfigView["portal_actions"]> = {
  skip: "hide_skip",
  pause: "hide_pause",
  resume: "hide_pause",
  cancel: "hide_cancel",
  change_date: "hide_change_date",
  edit_quantity: "hide_edit_quantity",
  swap_product: "hide_swap_product",
  edit_address: "hide_edit_address",
};

export function isHidden(config: PortalConfigView, action: PortalActionName): boolean {
  return config.portal_actions[HIDE_KEY[action]];
}

/** A hidden action is refused, whatever a hand-made form posts. */
export async function assertShown(shopId: string, action: PortalActionName): Promise<PortalConfigView> {
  const config = await portalConfigFor(shopId);
  if (isHidden(config, action)) throw new ApiError("forbidden", "This shop does not offer that change in the portal.");
  return config;
}

/** The customer's subscription from the mirror, checked against (shop, contract, customer): 404 or 403 otherwise. */
export async function customerSubscription(ctx: PortalContext, contractGid: string): Promise<{ contract: OwnedContract; history: HistoryEntry[] }> {
  const { contract, history } = await subscriptionPage(ctx, contractGid);
  return { contract, history };
}

/**
 * Everything the subscription page shows, read in one round trip of latency: the contract row,
 * its lines, its history (both halves) and whether its plan group is a build-a-box bundle's are
 * five queries sent together, not one after another (docs/decisions/140-hosted-portal-app-proxy.md
 * has the measurements). The history and the box flag are returned only to the owner.
 */
export async function subscriptionPage(
  ctx: PortalContext,
  contractGid: string,
): Promise<{ contract: OwnedContract; history: HistoryEntry[]; buildABox: boolean }> {
  const own = { shopId: ctx.shopId, contractGid, createdByService: true };
  const [row, lines, history, buildABox] = await Promise.all([
    prisma.contract.findFirst({ where: own }),
    prisma.contractLine.findMany({ where: { contract: own }, orderBy: [{ position: "asc" }, { id: "asc" }] }),
    subscriptionHistory(ctx.shopId, contractGid, 20),
    contractIsBuildABox(ctx.shopId, contractGid),
  ]);
  if (!row) throw new ApiError("not_found", `No subscription ${contractGid}`);
  if (row.customerGid !== ctx.customerId) throw new ApiError("forbidden", "This subscription belongs to another customer.");
  return { contract: { ...row, lines }, history, buildABox };
}

async function asOwner(ctx: PortalContext, contractGid: string, action: PortalActionName, write: () => Promise<WriteReceipt>): Promise<WriteReceipt> {
  await assertShown(ctx.shopId, action);
  await customerContract(ctx, contractGid, "edit");
  return write();
}

const writeCtx = (ctx: PortalContext, contractGid: string) => ({ shopId: ctx.shopId, shopDomain: ctx.shopDomain, contractGid, now: ctx.now });

export const skipForCustomer = (ctx: PortalContext, contractGid: string) =>
  asOwner(ctx, contractGid, "skip", () => skipSubscription(writeCtx(ctx, contractGid)));
export const pauseForCustomer = (ctx: PortalContext, contractGid: string) =>
  asOwner(ctx, contractGid, "pause", () => pauseSubscription(writeCtx(ctx, contractGid)));
export const resumeForCustomer = (ctx: PortalContext, contractGid: string) =>
  asOwner(ctx, contractGid, "resume", () => resumeSubscription(writeCtx(ctx, contractGid)));

/** The offers the cancel flow shows for this contract: the merchant's flow, less hidden or impossible actions. */
export function cancelOffers(config: PortalConfigView, contract: Pick<OwnedContract, "status" | "nextBillingAt">): SaveOffer[] {
  const active = contract.status === "ACTIVE";
  const offers: SaveOffer[] = [];
  if (config.cancel_flow.offer_pause && !isHidden(config, "pause") && active) offers.push("pause");
  if (config.cancel_flow.offer_skip && !isHidden(config, "skip") && active && contract.nextBillingAt) offers.push("skip");
  return offers;
}

export type CancelFlowChoice = { kind: "accept"; offer: SaveOffer } | { kind: "cancel"; reason: string | null };

/**
 * The cancel flow's outcome, posted once from its page. The offers the page showed are recorded
 * as "shown" now (a GET never writes); an accepted offer is recorded as "accepted" after its write
 * succeeded, and the contract is paused or skipped instead of cancelled. A cancel records the
 * survey's reason first, then cancels.
 */
export async function completeCancelFlow(
  ctx: PortalContext,
  contractGid: string,
  choice: CancelFlowChoice,
): Promise<{ outcome: "paused" | "skipped" | "cancelled" }> {
  const config = await assertShown(ctx.shopId, "cancel");
  const { contract } = await customerSubscription(ctx, contractGid);
  const offers = cancelOffers(config, contract);
  if (choice.kind === "accept" && !offers.includes(choice.offer)) throw new ApiError("invalid_request", "That offer is not available for this subscription.");
  for (const offer of offers) await recordSaveEvent({ ...ctx, contractGid, offerType: offer, eventType: "shown" });
  if (choice.kind === "accept") {
    if (choice.offer === "pause") await pauseForCustomer(ctx, contractGid);
    else await skipForCustomer(ctx, contractGid);
    await recordSaveEvent({ ...ctx, contractGid, offerType: choice.offer, eventType: "accepted" });
    return { outcome: choice.offer === "pause" ? "paused" : "skipped" };
  }
  if (config.cancel_flow.show_reason_survey && choice.reason) {
    const known = config.cancel_flow.reasons;
    if (known.length > 0 && !known.includes(choice.reason)) throw new ApiError("invalid_request", "Pick one of the listed reasons.");
    await recordCancelReason({ ...ctx, contractGid, reason: choice.reason });
  }
  await asOwner(ctx, contractGid, "cancel", () => cancelSubscription(writeCtx(ctx, contractGid)));
  return { outcome: "cancelled" };
}

/** Whether the contract's plan group is a build-a-box bundle's (the portal then links to its box page), by the contract's gid. */
async function contractIsBuildABox(shopId: string, contractGid: string): Promise<boolean> {
  const [r] = await prisma.$queryRaw<{ found: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM contracts c
      JOIN selling_plan_groups g ON g.shop_id = c.shop_id AND g.group_gid = c.selling_plan_group_gid
      JOIN bundles b ON b.group_id = g.id AND b.kind = 'BUILD_A_BOX'
      WHERE c.shop_id = ${shopId} AND c.contract_gid = ${contractGid}
    ) AS found`;
  return r?.found ?? false;
}

/**
 * The shop's row for an app proxy request, with its portal settings: only an installed shop has
 * a portal. Two queries sent together (the settings by the shop's domain), so the settings cost
 * no round trip of their own and are never stale.
 */
export async function installedShop(domain: string): Promise<{ id: string; domain: string; config: PortalConfigView } | null> {
  const [shop, config] = await Promise.all([
    prisma.shop.findFirst({ where: { domain, installState: "INSTALLED" }, select: { id: true, domain: true } }),
    prisma.portalConfig.findFirst({ where: { shop: { domain } } }),
  ]);
  return shop ? { ...shop, config: portalConfigView(config) } : null;
}
