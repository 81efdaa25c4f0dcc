// The selection cutoff (docs/decisions/106-box-cutoff-job.md). Once a box subscriber's cutoff has
// passed (selection_cutoff_days before the charge), their period's box is settled: the pick when it
// is still valid against the published menu and the size the box line bought
// (docs/decisions/167-box-size-on-the-line.md), else the menu's fallback box, written onto the
// contract's box line through Shopify's draft flow (subscriptionContractUpdate → draft line update →
// subscriptionDraftCommit, the port's updateLine) and recorded in box_applications. A recorded
// application is never applied again, so re-runs change nothing twice; Shopify's refusal is recorded
// as REFUSED (a Risk Center item) and tried again on the next run; a platform outage leaves no row.
import type { BundleBox, BundleBoxItem } from "@prisma/client";
import { prisma } from "../../db.server";
import { limiter } from "../../infra/async";
import { QUEUES, enqueueBulk } from "../../infra/queues.server";
import { log } from "../../infra/log.server";
import { isPlatformError, platformFor, type ShopifyPort } from "../../platform/index.server";
import { BOX_ITEMS_ATTRIBUTE, BOX_PERIOD_ATTRIBUTE, boxBounds, boxCutoff, periodOf, sizeRefusal, type BoxBounds } from "./box.server";

/** Which the cutoff applied: the subscriber's pick, or the fallback box. */
export const BOX_SOURCE_ATTRIBUTE = "_box_source";
const OWN_ATTRIBUTES = [BOX_PERIOD_ATTRIBUTE, BOX_ITEMS_ATTRIBUTE, BOX_SOURCE_ATTRIBUTE];
const DAY_MS = 86_400_000;
const BATCH = 1000;
/** APPLIED rows written per statement. */
const FLUSH = 100;

export interface CutoffReport {
  applied: number;
  picks: number;
  fallbacks: number;
  refused: number;
  /** Platform unreachable: left for the next run. */
  deferred: number;
  /** Past the cutoff, but the period has no published menu: nothing to apply. */
  noMenu: number;
}

type Item = { variant_id: string; quantity: number };
type Menu = BundleBox & { items: BundleBoxItem[] };

/** The pick when it is still valid against the menu and the size the box line bought (boxBounds), else null. */
export function validPick(items: Item[] | null, menu: Menu, bounds: BoxBounds): Item[] | null {
  if (!items?.length) return null;
  const byVariant = new Map(menu.items.map((i) => [i.variantGid, i]));
  let size = 0;
  for (const p of items) {
    const item = byVariant.get(p.variant_id);
    if (!item || p.quantity < 1 || (item.maxQuantity !== null && p.quantity > item.maxQuantity)) return null;
    size += p.quantity;
  }
  return sizeRefusal(size, bounds) ? null : items;
}

export const fallbackOf = (menu: Menu): Item[] =>
  [...menu.items]
    .sort((a, b) => a.position - b.position)
    .filter((i) => i.fallbackQuantity > 0)
    .map((i) => ({ variant_id: i.variantGid, quantity: i.fallbackQuantity }));

/**
 * Settles every box subscriber of the shop whose cutoff has passed and whose charge is still ahead.
 * `concurrency` platform edits run at once (Shopify's per-shop budget is the real ceiling).
 */
export async function runBoxCutoff(shopDomain: string, opts: { now?: Date; concurrency?: number; port?: ShopifyPort } = {}): Promise<CutoffReport> {
  const now = opts.now ?? new Date();
  const report: CutoffReport = { applied: 0, picks: 0, fallbacks: 0, refused: 0, deferred: 0, noMenu: 0 };
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, installState: true } });
  if (!shop || shop.installState !== "INSTALLED") return report;
  const bundles = await prisma.bundle.findMany({
    where: { shopId: shop.id, kind: "BUILD_A_BOX" },
    include: { group: { select: { groupGid: true, sellingPlans: { select: { sellingPlanGid: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  if (!bundles.length) return report;
  const port = opts.port ?? (await platformFor(shopDomain));
  const run = limiter(Math.max(1, opts.concurrency ?? 8));
  // One group, one bundle: the first made (as the Customer API's box object reads it).
  const seenGroups = new Set<string>();
  for (const bundle of bundles) {
    if (seenGroups.has(bundle.group.groupGid)) continue;
    seenGroups.add(bundle.group.groupGid);
    const plans = new Set(bundle.group.sellingPlans.map((p) => p.sellingPlanGid));
    // One read per period, shared by every contract of the batch (the promise is cached, not the row).
    const menus = new Map<string, Promise<Menu | null>>();
    const menuOf = (period: string) => {
      if (!menus.has(period)) {
        menus.set(
          period,
          prisma.bundleBox
            .findUnique({ where: { bundleId_period: { bundleId: bundle.id, period } }, include: { items: true } })
            .then((m) => (m?.published ? m : null)),
        );
      }
      return menus.get(period)!;
    };
    // Boxes Shopify committed, recorded every FLUSH and at the end of each batch: a crash in between
    // re-applies those boxes once on the next run (the same attributes), as docs/decisions/106 allows.
    let applied: AppliedBox[] = [];
    const flush = async () => {
      const rows = applied;
      applied = [];
      await recordApplied(shop.id, bundle.id, rows);
    };
    // Due: charge ahead, cutoff passed (next charge < now + cutoff days).
    let after: string | undefined;
    for (;;) {
      const due = await prisma.contract.findMany({
        where: {
          shopId: shop.id,
          status: "ACTIVE",
          sellingPlanGroupGid: bundle.group.groupGid,
          nextBillingAt: { gt: now, lte: new Date(now.getTime() + bundle.selectionCutoffDays * DAY_MS) },
          ...(after ? { id: { gt: after } } : {}),
        },
        select: { id: true, contractGid: true, nextBillingAt: true },
        orderBy: { id: "asc" },
        take: BATCH,
      });
      if (!due.length) break;
      after = due[due.length - 1].id;
      const gids = due.map((c) => c.contractGid);
      const settled = await prisma.boxApplication.findMany({
        where: { shopId: shop.id, contractGid: { in: gids }, status: "APPLIED" },
        select: { contractGid: true, period: true },
      });
      const done = new Set(settled.map((s) => `${s.contractGid}|${s.period}`));
      const picks = await prisma.boxSelection.findMany({
        where: { shopId: shop.id, contractGid: { in: gids } },
        select: { contractGid: true, period: true, items: true },
      });
      const pickOf = new Map(picks.map((p) => [`${p.contractGid}|${p.period}`, p.items as Item[]]));
      await Promise.all(
        due.map(async (c) => {
          const period = periodOf(c.nextBillingAt!);
          if (done.has(`${c.contractGid}|${period}`) || boxCutoff(c.nextBillingAt!, bundle.selectionCutoffDays) > now) return;
          const menu = await menuOf(period);
          if (!menu) {
            report.noMenu++;
            return;
          }
          const picked = pickOf.get(`${c.contractGid}|${period}`) ?? null;
          // Until the draft answers with the box line, the fallback is what a refusal records.
          const box: { items: Item[]; source: "PICK" | "FALLBACK" } = { items: fallbackOf(menu), source: "FALLBACK" };
          try {
            // The draft opens with its lines (docs/decisions/108-box-cutoff-throughput.md): the box
            // line, the size it bought (docs/decisions/167-box-size-on-the-line.md) and its other
            // attributes are read there, not by a contract read before it.
            await run(() =>
              port.updateLineOfDraft(c.contractGid, (lines) => {
                const line = lines.find((l) => l.sellingPlanId && plans.has(l.sellingPlanId));
                if (!line) throw new RefusedError("The subscription has no line on the box's plan.");
                const pick = validPick(picked, menu, boxBounds(bundle, line.customAttributes));
                if (pick) Object.assign(box, { items: pick, source: "PICK" });
                const kept = (line.customAttributes ?? []).filter((a) => !OWN_ATTRIBUTES.includes(a.key));
                return {
                  lineId: line.id,
                  change: {
                    customAttributes: [
                      ...kept,
                      { key: BOX_PERIOD_ATTRIBUTE, value: period },
                      { key: BOX_ITEMS_ATTRIBUTE, value: box.items.map((i) => `${i.variant_id}:${i.quantity}`).join(",") },
                      { key: BOX_SOURCE_ATTRIBUTE, value: box.source === "PICK" ? "pick" : "fallback" },
                    ],
                  },
                };
              }),
            );
          } catch (err) {
            const refused = err instanceof RefusedError || (isPlatformError(err) && (err.kind === "invalid_request" || err.kind === "state_conflict"));
            if (!refused) {
              report.deferred++;
              log.warn("box cutoff: platform unavailable, left for the next run", { err, contract: c.contractGid });
              return;
            }
            report.refused++;
            const error = err instanceof Error ? err.message : String(err);
            await prisma.boxApplication.upsert({
              where: { shopId_contractGid_period: { shopId: shop.id, contractGid: c.contractGid, period } },
              create: { shopId: shop.id, bundleId: bundle.id, contractGid: c.contractGid, period, ...box, status: "REFUSED", error },
              update: { ...box, status: "REFUSED", error },
            });
            return;
          }
          // Written in groups, not one statement per contract (docs/decisions/108-box-cutoff-throughput.md).
          applied.push({ contractGid: c.contractGid, period, ...box });
          if (applied.length >= FLUSH) await flush();
          report.applied++;
          if (box.source === "PICK") report.picks++;
          else report.fallbacks++;
        }),
      );
      await flush();
      if (due.length < BATCH) break;
    }
  }
  return report;
}

interface AppliedBox {
  contractGid: string;
  period: string;
  source: "PICK" | "FALLBACK";
  items: Item[];
}

/** APPLIED rows for boxes Shopify committed, in one INSERT ... ON CONFLICT (a refused row becomes APPLIED). */
async function recordApplied(shopId: string, bundleId: string, rows: AppliedBox[]): Promise<void> {
  if (!rows.length) return;
  await prisma.$executeRaw`
    INSERT INTO box_applications (id, shop_id, bundle_id, contract_gid, period, source, status, items, error, created_at, updated_at)
    SELECT gen_random_uuid()::text, ${shopId}, ${bundleId}, t.gid, t.period, t.source::"BoxApplicationSource", 'APPLIED', t.items::jsonb, NULL, now(), now()
      FROM unnest(${rows.map((r) => r.contractGid)}::text[], ${rows.map((r) => r.period)}::text[], ${rows.map((r) => r.source)}::text[],
                  ${rows.map((r) => JSON.stringify(r.items))}::text[]) AS t(gid, period, source, items)
    ON CONFLICT (shop_id, contract_gid, period)
    DO UPDATE SET source = EXCLUDED.source, status = 'APPLIED', items = EXCLUDED.items, error = NULL, updated_at = now()`;
}

class RefusedError extends Error {}

/** The hourly tick: one box-cutoff job per installed shop that has a build-a-box bundle (one per shop and hour). */
export async function queueBoxCutoffs(now = new Date()): Promise<{ shops: number }> {
  const shops = await prisma.shop.findMany({ where: { installState: "INSTALLED", bundles: { some: { kind: "BUILD_A_BOX" } } }, select: { domain: true } });
  const hour = now.toISOString().slice(0, 13);
  await enqueueBulk(
    QUEUES.sweeps,
    shops.map((s) => ({ name: "box-cutoff" as const, data: { domain: s.domain }, opts: { jobId: `box-cutoff-${s.domain}-${hour}` } })),
  );
  return { shops: shops.length };
}
