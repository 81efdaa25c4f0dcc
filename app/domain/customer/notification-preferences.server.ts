// Customer notification preferences and the read-only activity feed (Customer API; decision 071).
// Preferences are keyed by (shop, customer). The categories are the only keys ever stored:
// essential account and billing mail (payment failures, payment-method updates, order receipts
// the law requires) is not a category, so an opt-out for it has nowhere to go and is dropped
// like every other unknown key.
import { prisma } from "../../db.server";
import { log } from "../../infra/log.server";

export const NOTIFICATION_CATEGORIES = [
  { key: "reminders", label: "Upcoming charge reminders", description: "A note a few days before each charge." },
  { key: "orders", label: "Order updates", description: "Confirmation and shipping of each renewal order." },
  { key: "box", label: "Box menu", description: "When the period's menu is published and before picking closes." },
  { key: "winback", label: "Offers", description: "Occasional offers after a subscription ends." },
] as const;

export type CategoryKey = (typeof NOTIFICATION_CATEGORIES)[number]["key"];
export type PreferenceValues = Record<CategoryKey, boolean>;

/** Every category is on until the customer turns it off. */
export const DEFAULT_PREFERENCE = true;

const KEYS = NOTIFICATION_CATEGORIES.map((c) => c.key) as CategoryKey[];

/** Known keys only; a missing key takes the default (the map is full, not a patch). */
export function normalisePreferences(input: Record<string, unknown>): PreferenceValues {
  return Object.fromEntries(KEYS.map((k) => [k, typeof input[k] === "boolean" ? input[k] : DEFAULT_PREFERENCE])) as PreferenceValues;
}

export interface PreferencesView {
  categories: { key: string; label: string; description: string }[];
  values: PreferenceValues;
}

const categories = () => NOTIFICATION_CATEGORIES.map((c) => ({ ...c }));

export async function getNotificationPreferences(ctx: { shopId: string; customerId: string }): Promise<PreferencesView> {
  const row = await prisma.notificationPreference.findUnique({ where: { shopId_customerGid: { shopId: ctx.shopId, customerGid: ctx.customerId } } });
  const stored = row?.values && typeof row.values === "object" && !Array.isArray(row.values) ? (row.values as Record<string, unknown>) : {};
  return { categories: categories(), values: normalisePreferences(stored) };
}

/** Replaces the customer's whole map with `values` (already filtered to the categories). */
export async function setNotificationPreferences(ctx: { shopId: string; customerId: string; values: PreferenceValues }): Promise<PreferencesView> {
  await prisma.notificationPreference.upsert({
    where: { shopId_customerGid: { shopId: ctx.shopId, customerGid: ctx.customerId } },
    create: { shopId: ctx.shopId, customerGid: ctx.customerId, values: ctx.values },
    update: { values: ctx.values },
  });
  return { categories: categories(), values: ctx.values };
}

/** The cap on the feed (the 50 newest entries). */
export const ACTIVITY_LIMIT = 50;

export interface ActivityEntry {
  id: string;
  title: string;
  status: string;
  occurred_at: string;
}

type ActivityRow = { id: string; title: string; status: string; createdAt: Date };

function readActivity(ctx: { shopId: string; customerId: string }): Promise<ActivityRow[]> {
  return prisma.notificationLogEntry.findMany({
    where: { shopId: ctx.shopId, customerGid: ctx.customerId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: ACTIVITY_LIMIT,
    select: { id: true, title: true, status: true, createdAt: true },
  });
}

/** Newest first, at most 50; best effort: an internal failure is an empty feed, never an error. */
export async function notificationActivity(
  ctx: { shopId: string; customerId: string },
  read: (ctx: { shopId: string; customerId: string }) => Promise<ActivityRow[]> = readActivity,
): Promise<ActivityEntry[]> {
  try {
    const rows = await read(ctx);
    return rows.slice(0, ACTIVITY_LIMIT).map((r) => ({ id: r.id, title: r.title, status: r.status, occurred_at: r.createdAt.toISOString() }));
  } catch (err) {
    log.warn("notification activity unavailable; answering an empty feed", { err });
    return [];
  }
}
