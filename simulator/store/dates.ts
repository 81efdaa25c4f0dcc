// Date arithmetic of billing cycles, in UTC as Shopify stores them.
import type { Contract, Interval } from "../state";

export function addInterval(iso: string, interval: Interval, count: number): string {
  const d = new Date(iso);
  if (interval === "DAY") d.setUTCDate(d.getUTCDate() + count);
  else if (interval === "WEEK") d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === "MONTH") d.setUTCMonth(d.getUTCMonth() + count);
  else d.setUTCFullYear(d.getUTCFullYear() + count);
  return d.toISOString();
}

export const cycleDate = (c: Contract, index: number) => addInterval(c.cycleAnchor, c.billingPolicy.interval, c.billingPolicy.intervalCount * (index - 1));

export const sameDay = (a: string, b: string) => a.slice(0, 10) === b.slice(0, 10);
