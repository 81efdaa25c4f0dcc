// Shopify's anchor rules for a checkout's first billing date, the simulator's own implementation
// (docs/simulator.md#checkout). Written apart from the app's schedule engine
// (app/domain/shared/schedule.ts) and differently on purpose: it walks the shop's calendar one
// day at a time and asks of each day "is this an anchor?", where the app does month arithmetic.
// Two implementations that agree are evidence; the app's drift check compares them on every
// new contract.
//
// preAnchorBehavior (Shopify's enum documentation): ASAP, orders are fulfilled at once, and inside
// the cutoff at the next anchor; NEXT, orders wait for the next anchor, and inside the cutoff skip
// it for the following one. The cutoff is the delivery policy's `cutoff` in days (or an anchor's
// cutoffDay). The contract's next billing date is the anchor the first delivery belongs to for
// NEXT, and the anchor after the checkout's own delivery for ASAP.
import type { Anchor, Interval } from "../state";
import { addInterval } from "./dates";

interface Wall {
  y: number;
  m: number;
  d: number;
  weekday: number;
}

const DAY_MS = 86_400_000;

/** The shop's calendar day of an instant (weekday 1 = Monday ... 7 = Sunday, as Shopify counts). */
function wallDay(at: number, timeZone: string): Wall {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", weekday: "short" }).formatToParts(new Date(at));
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(get("weekday")) + 1;
  return { y: Number(get("year")), m: Number(get("month")), d: Number(get("day")), weekday };
}

const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function isAnchorDay(w: Wall, a: Anchor): boolean {
  if (a.type === "WEEKDAY") return w.weekday === a.day;
  if (a.type === "YEARDAY" && w.m !== a.month) return false;
  return w.d === Math.min(a.day, lastDay(w.y, w.m));
}

/**
 * The anchors at or after `from` (the checkout instant), as instants at the checkout's time of
 * day: `count` of them, stepping one calendar day at a time in the shop's zone.
 */
function anchorInstants(from: number, anchors: Anchor[], timeZone: string, count: number): number[] {
  const out: number[] = [];
  // Noon-to-noon steps never skip or repeat a calendar day across DST changes.
  for (let i = 0, t = from; i < 800 && out.length < count; i++, t += DAY_MS) {
    if (anchors.some((a) => isAnchorDay(wallDay(t, timeZone), a))) out.push(t);
  }
  return out;
}

export interface DeliveryRules {
  interval: Interval;
  intervalCount: number;
  anchors: (Anchor & { cutoffDay?: number | null })[];
  cutoff: number | null;
  preAnchorBehavior: "ASAP" | "NEXT";
}

/** The contract's next billing date for a checkout at `now`, and whether the checkout's order ships at once. */
export function checkoutBillingDate(now: Date, rules: DeliveryRules, timeZone: string): { nextBillingDate: string; shipsNow: boolean } {
  if (!rules.anchors.length) return { nextBillingDate: addInterval(now.toISOString(), rules.interval, rules.intervalCount), shipsNow: true };
  const [first, second] = anchorInstants(now.getTime(), rules.anchors, timeZone, 2);
  const cutoffDays = rules.cutoff ?? rules.anchors[0].cutoffDay ?? 0;
  // Whole days on the shop's calendar between the order and the first anchor.
  const a = wallDay(first, timeZone);
  const o = wallDay(now.getTime(), timeZone);
  const daysBefore = Math.round((Date.UTC(a.y, a.m - 1, a.d) - Date.UTC(o.y, o.m - 1, o.d)) / DAY_MS);
  const inside = daysBefore < cutoffDays;
  if (rules.preAnchorBehavior === "NEXT") return { nextBillingDate: new Date(inside ? second : first).toISOString(), shipsNow: false };
  return { nextBillingDate: new Date(inside ? second : first).toISOString(), shipsNow: !inside };
}
