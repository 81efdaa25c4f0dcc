// One-click unsubscribe (RFC 8058): the signed link's POST turns that category off for that
// customer with no further step. A GET only shows a page with a button (link scanners fetch
// links; a fetch must never unsubscribe anyone).
import { getNotificationPreferences, setNotificationPreferences, NOTIFICATION_CATEGORIES, type CategoryKey } from "../customer/notification-preferences.server";
import type { UnsubscribeTarget } from "./links.server";

export const categoryLabel = (key: string) => NOTIFICATION_CATEGORIES.find((c) => c.key === key)?.label ?? null;

/** Turns the target's category off; false when the category is not one a customer may turn off. */
export async function unsubscribe(t: UnsubscribeTarget): Promise<boolean> {
  if (!categoryLabel(t.category)) return false;
  const current = await getNotificationPreferences({ shopId: t.shopId, customerId: t.customerGid });
  await setNotificationPreferences({ shopId: t.shopId, customerId: t.customerGid, values: { ...current.values, [t.category as CategoryKey]: false } });
  return true;
}
