// Date arithmetic of billing cycles, in UTC as Shopify stores them.
import type { Contract, Interval } from "../state";

/**
 * `count` intervals after `iso`. Months and years keep the day of the month, clamped to the target
 * month's last day (Jan 31 + 1 month is Feb 28 or 29, not Mar 3 as Date's own rollover gives).
 */
export function addInterval(iso: string, interval: Interval, count: number): string {
  const d = new Date(iso);
  if (interval === "DAY") d.setUTCDate(d.getUTCDate() + count);
  else if (interval === "WEEK") d.setUTCDate(d.getUTCDate() + 7 * count);
  else {
    const months = interval === "MONTH" ? count : 12 * count;
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() + months);
    const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, lastDay));
  }
  return d.toISOString();
}

export const cycleDate = (c: Contract, index: number) => addInterval(c.cycleAnchor, c.billingPolicy.interval, c.billingPolicy.intervalCount * (index - 1));

export const sameDay = (a: string, b: string) => a.slice(0, 10) === b.slice(0, 10);
