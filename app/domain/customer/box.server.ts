// Build-a-box on the Customer API (docs/decisions/072-box-object.md). The box of a contract is
// the period of its next charge: the bundle its line subscribes under, that period's menu, the
// customer's pick, and whether the pick is still open. A pick is checked against the published
// menu and the size the line bought (else the bundle's outer bounds), then applied to the contract
// at once through the platform
// (the box line's custom attributes, by the draft → line update → commit flow) and recorded in
// box_selections. Titles, images and prices always come from the menu, never from the client.
import type { Bundle, BundleBox, BundleBoxItem } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import type { PlatformContract, PlatformLine } from "../../platform/port";
import { customerContract, type PortalContext } from "./portal.server";
import { iso } from "../shared/money.server";
import { sizeKey } from "../catalog/bundle-form";
import { storedSizes } from "../catalog/bundle-builder.server";
import { platformErrors } from "../shared/platform-call.server";

const DAY_MS = 86_400_000;

/** Line attribute keys the app owns on the box line; every other attribute is preserved. */
export const BOX_PERIOD_ATTRIBUTE = "_box_period";
export const BOX_ITEMS_ATTRIBUTE = "_box_items";

/**
 * The size bought, by name: a line property of the box's product page (`properties[_box_size]`), which
 * Shopify keeps as the contract line's custom attribute (docs/decisions/167-box-size-on-the-line.md).
 */
export const BOX_SIZE_ATTRIBUTE = "_box_size";

/** The item counts a pick is held to, and the size's name when the line names one of the bundle's sizes. */
export interface BoxBounds {
  label: string | null;
  min: number | null;
  max: number | null;
}

/**
 * The size the box line bought, else the bundle's outer bounds: a contract from before the size was
 * recorded, or one naming a size the merchant has since renamed or removed, keeps the old rule.
 */
export function boxBounds(
  bundle: Pick<Bundle, "sizes" | "boxSizeMin" | "boxSizeMax">,
  attributes: readonly { key: string; value: string }[] | undefined,
): BoxBounds {
  const named = attributes?.find((a) => a.key === BOX_SIZE_ATTRIBUTE)?.value;
  const size = named ? storedSizes(bundle).find((s) => sizeKey(s.label) === sizeKey(named)) : undefined;
  return size ? { label: size.label, min: size.min, max: size.max } : { label: null, min: bundle.boxSizeMin, max: bundle.boxSizeMax };
}

/** Why a box of `count` items does not fit the bounds (null: it fits). */
export function sizeRefusal(count: number, b: BoxBounds): string | null {
  const box = b.label ? `Your ${b.label} box` : "The box";
  if (b.min !== null && count < b.min) return `${box} holds at least ${b.min} items; this pick has ${count}.`;
  if (b.max !== null && count > b.max) return `${box} holds at most ${b.max} items; this pick has ${count}.`;
  return null;
}

export type ClosedReason = "not_build_a_box" | "no_upcoming_charge" | "menu_not_published" | "past_cutoff" | "subscription_inactive";

export interface BoxItemView {
  variant_id: string;
  product_title: string;
  variant_title: string | null;
  image_url: string | null;
  price_cents: number;
}

export interface CustomerBox {
  contract_id: string;
  is_bundle: boolean;
  build_a_box: boolean;
  bundle: {
    id: string;
    title: string;
    kind: "curated" | "build_a_box" | "regular";
    selection_cutoff_days: number;
    box_size_min: number | null;
    box_size_max: number | null;
  } | null;
  period: string | null;
  next_billing_at: string | null;
  menu: { published: boolean; published_at: string | null; items: Array<BoxItemView & { position: number }> } | null;
  selection: { items: Array<BoxItemView & { quantity: number }>; updated_at: string } | null;
  editable: boolean;
  edit_closes_at: string | null;
  closed_reason: ClosedReason | null;
}

/** The instant picking closes for a charge: selection_cutoff_days before it. */
export function boxCutoff(nextBillingAt: Date, cutoffDays: number): Date {
  return new Date(nextBillingAt.getTime() - cutoffDays * DAY_MS);
}

/** Why a pick is refused now (null: open). Open strictly before the cutoff, once the menu is published. */
export function boxClosedReason(input: {
  buildABox: boolean;
  status: string;
  nextBillingAt: Date | null;
  cutoffDays: number;
  menuPublished: boolean;
  now: Date;
}): ClosedReason | null {
  if (!input.buildABox) return "not_build_a_box";
  if (input.status !== "ACTIVE") return "subscription_inactive";
  if (!input.nextBillingAt) return "no_upcoming_charge";
  if (!input.menuPublished) return "menu_not_published";
  if (input.now.getTime() >= boxCutoff(input.nextBillingAt, input.cutoffDays).getTime()) return "past_cutoff";
  return null;
}

/** YYYY-MM (UTC) of a charge date: the period whose menu that charge ships. */
export const periodOf = (d: Date) => d.toISOString().slice(0, 7);

/** Whether the cutoff job applied a box to the contract for the period. */
async function settledBox(shopId: string, contractGid: string, period: string): Promise<boolean> {
  const row = await prisma.boxApplication.findUnique({ where: { shopId_contractGid_period: { shopId, contractGid, period } }, select: { status: true } });
  return row?.status === "APPLIED";
}

type BoxWithItems = BundleBox & { items: BundleBoxItem[] };

/** The first line subscribing under a selling plan group that has a bundle, with that bundle. */
async function bundleLine(shopId: string, contract: PlatformContract): Promise<{ bundle: Bundle; line: PlatformLine } | null> {
  for (const line of contract.lines) {
    if (!line.sellingPlanId) continue;
    const plan = await prisma.sellingPlan.findFirst({
      where: { sellingPlanGid: line.sellingPlanId, group: { shopId } },
      select: { group: { select: { bundles: { orderBy: { createdAt: "asc" }, take: 1 } } } },
    });
    const bundle = plan?.group.bundles[0];
    if (bundle) return { bundle, line };
  }
  return null;
}

const kindOf = (b: Bundle) =>
  (b.kind === "CURATED" ? "curated" : b.kind === "BUILD_A_BOX" ? "build_a_box" : "regular") as "curated" | "build_a_box" | "regular";

function menuItem(i: BundleBoxItem): BoxItemView {
  return { variant_id: i.variantGid, product_title: i.productTitle, variant_title: i.variantTitle, image_url: i.imageUrl, price_cents: i.priceCents };
}

interface Loaded {
  contract: PlatformContract;
  found: { bundle: Bundle; line: PlatformLine } | null;
  period: string | null;
  nextBillingAt: Date | null;
  menu: BoxWithItems | null;
}

async function load(ctx: PortalContext, contract: PlatformContract): Promise<Loaded> {
  const found = await bundleLine(ctx.shopId, contract);
  const nextBillingAt = contract.nextBillingDate ? new Date(contract.nextBillingDate) : null;
  const period = nextBillingAt ? periodOf(nextBillingAt) : null;
  const menu =
    found && period ? await prisma.bundleBox.findUnique({ where: { bundleId_period: { bundleId: found.bundle.id, period } }, include: { items: true } }) : null;
  return { contract, found, period, nextBillingAt, menu };
}

async function view(ctx: PortalContext, l: Loaded): Promise<CustomerBox> {
  const now = ctx.now ?? new Date();
  const b = l.found?.bundle ?? null;
  const buildABox = b?.kind === "BUILD_A_BOX";
  const published = !!l.menu?.published;
  let closed = boxClosedReason({
    buildABox,
    status: l.contract.status,
    nextBillingAt: l.nextBillingAt,
    cutoffDays: b?.selectionCutoffDays ?? 0,
    menuPublished: published,
    now,
  });
  // Once the cutoff job settled the period (docs/decisions/106), picking is closed whatever the clock says.
  if (closed === null && l.period && (await settledBox(ctx.shopId, l.contract.id, l.period))) closed = "past_cutoff";
  // An unpublished menu is the merchant's draft: the shopper sees that it exists, not its items.
  const menuItems = published && l.menu ? [...l.menu.items].sort((x, y) => x.position - y.position || x.id.localeCompare(y.id)) : [];
  const byVariant = new Map(menuItems.map((i) => [i.variantGid, i]));
  let selection: CustomerBox["selection"] = null;
  if (buildABox && l.period) {
    const row = await prisma.boxSelection.findUnique({
      where: { shopId_contractGid_period: { shopId: ctx.shopId, contractGid: l.contract.id, period: l.period } },
    });
    if (row) {
      const picked = Array.isArray(row.items) ? (row.items as Array<{ variant_id: string; quantity: number }>) : [];
      selection = {
        items: picked.flatMap((p) => {
          const item = byVariant.get(p.variant_id);
          return item ? [{ ...menuItem(item), quantity: p.quantity }] : [];
        }),
        updated_at: row.updatedAt.toISOString(),
      };
    }
  }
  return {
    contract_id: l.contract.id,
    is_bundle: !!b,
    build_a_box: buildABox,
    bundle: b
      ? { id: b.id, title: b.title, kind: kindOf(b), selection_cutoff_days: b.selectionCutoffDays, box_size_min: b.boxSizeMin, box_size_max: b.boxSizeMax }
      : null,
    period: b ? l.period : null,
    next_billing_at: iso(l.nextBillingAt),
    menu:
      b && l.menu
        ? { published, published_at: published ? iso(l.menu.publishedAt) : null, items: menuItems.map((i) => ({ ...menuItem(i), position: i.position })) }
        : null,
    selection,
    editable: closed === null,
    edit_closes_at: buildABox && l.nextBillingAt ? boxCutoff(l.nextBillingAt, b!.selectionCutoffDays).toISOString() : null,
    closed_reason: closed,
  };
}

export async function getCustomerBox(ctx: PortalContext & { contractGid: string }): Promise<CustomerBox> {
  const { contract } = await customerContract(ctx, ctx.contractGid, "read");
  return view(ctx, await load(ctx, contract));
}

export interface BoxPick {
  variantId: string;
  quantity: number;
}

function closedMessage(reason: ClosedReason, l: Loaded): string {
  const cutoff = l.found && l.nextBillingAt ? boxCutoff(l.nextBillingAt, l.found.bundle.selectionCutoffDays).toISOString() : null;
  switch (reason) {
    case "menu_not_published":
      return `The menu for ${l.period} is not published yet: picking opens when it is.`;
    case "past_cutoff":
      return `Picking for ${l.period} closed at ${cutoff}; the next period's box opens after this charge.`;
    case "no_upcoming_charge":
      return "The subscription has no upcoming charge to pick a box for.";
    default:
      return "Picking is closed for this subscription.";
  }
}

/** Checks the pick against the bundle and the menu, applies it through the platform, records it. */
export async function saveCustomerBox(ctx: PortalContext & { contractGid: string; items: BoxPick[] }): Promise<CustomerBox> {
  const { port, contract } = await customerContract(ctx, ctx.contractGid, "edit");
  const l = await load(ctx, contract);
  if (!l.found || l.found.bundle.kind !== "BUILD_A_BOX") {
    throw new ApiError("invalid_request", "This subscription is not on a build-a-box plan.");
  }
  const bundle = l.found.bundle;
  const reason = boxClosedReason({
    buildABox: true,
    status: contract.status,
    nextBillingAt: l.nextBillingAt,
    cutoffDays: bundle.selectionCutoffDays,
    menuPublished: !!l.menu?.published,
    now: ctx.now ?? new Date(),
  });
  if (reason === "subscription_inactive")
    throw new ApiError("state_conflict", `The subscription is ${contract.status.toLowerCase()}: its box cannot be changed.`);
  if (reason) throw new ApiError("selection_closed", closedMessage(reason, l));
  // The cutoff job settled this period already (docs/decisions/106): the applied box is final.
  if (await settledBox(ctx.shopId, contract.id, l.period!)) throw new ApiError("selection_closed", closedMessage("past_cutoff", l));

  const onMenu = new Map(l.menu!.items.map((i) => [i.variantGid, i]));
  const seen = new Set<string>();
  for (const [i, pick] of ctx.items.entries()) {
    if (seen.has(pick.variantId))
      throw new ApiError("invalid_request", `body.items.${i}.variant_id: ${pick.variantId} is listed twice; send each variant once with its quantity.`);
    seen.add(pick.variantId);
    const item = onMenu.get(pick.variantId);
    if (!item) throw new ApiError("invalid_request", `body.items.${i}.variant_id: ${pick.variantId} is not on the ${l.period} menu.`);
    // The menu's limit per box: the cutoff job would drop a pick over it for the fallback.
    if (item.maxQuantity !== null && pick.quantity > item.maxQuantity)
      throw new ApiError("invalid_request", `body.items.${i}.quantity: the ${l.period} menu allows at most ${item.maxQuantity} of this item per box.`);
  }
  // Held to the size this subscriber bought when the line names it (docs/decisions/167-box-size-on-the-line.md).
  const misfit = sizeRefusal(
    ctx.items.reduce((n, p) => n + p.quantity, 0),
    boxBounds(bundle, l.found.line.customAttributes),
  );
  if (misfit) throw new ApiError("invalid_request", misfit);

  const kept = (l.found.line.customAttributes ?? []).filter((a) => a.key !== BOX_PERIOD_ATTRIBUTE && a.key !== BOX_ITEMS_ATTRIBUTE);
  const attributes = [
    ...kept,
    { key: BOX_PERIOD_ATTRIBUTE, value: l.period! },
    { key: BOX_ITEMS_ATTRIBUTE, value: ctx.items.map((p) => `${p.variantId}:${p.quantity}`).join(",") },
  ];
  const lineId = l.found.line.id;
  await platformErrors(() => port.updateLine(contract.id, lineId, { customAttributes: attributes }));
  const items = ctx.items.map((p) => ({ variant_id: p.variantId, quantity: p.quantity }));
  try {
    await prisma.boxSelection.upsert({
      where: { shopId_contractGid_period: { shopId: ctx.shopId, contractGid: contract.id, period: l.period! } },
      create: { shopId: ctx.shopId, contractGid: contract.id, period: l.period!, items },
      update: { items },
    });
  } catch (err) {
    // The platform holds the pick (it ships from the line); the local copy catches up on the next save.
    log.error("box pick applied at the platform but not recorded locally", { err, contract: contract.id });
  }
  return view(ctx, l);
}
