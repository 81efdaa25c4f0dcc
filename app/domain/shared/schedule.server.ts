// Billing-date arithmetic for subscription writes (skip, reschedule). Pure functions, UTC.
//
// Rolling plans bill every interval_count intervals from each subscriber's own date.
// Anchored plans (always interval MONTH) bill on anchor_day of the listed anchor_months, or of
// every month when anchor_months is empty (the day is fixed, the months follow the cadence).
// anchor_day past the end of a month (e.g. 31 in April) lands on that month's last day, as
// Shopify's MONTHDAY anchors do. The time of day of the current charge is kept, so moving a
// 10:00Z charge to the next anchor still charges at 10:00Z.

export type Interval = "DAY" | "WEEK" | "MONTH" | "YEAR";

export interface RollingSchedule {
  mode: "rolling";
  interval: Interval;
  intervalCount: number;
}

export interface AnchoredSchedule {
  mode: "anchored";
  anchorDay: number;
  /** 1..12; empty = every month. */
  anchorMonths: number[];
}

export type Schedule = RollingSchedule | AnchoredSchedule;

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/** Add whole months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(d: Date, months: number): Date {
  const y = d.getUTCFullYear();
  const m0 = d.getUTCMonth() + months;
  const ty = y + Math.floor(m0 / 12);
  const tm = ((m0 % 12) + 12) % 12;
  const day = Math.min(d.getUTCDate(), daysInMonth(ty, tm));
  return new Date(Date.UTC(ty, tm, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
}

/** One billing interval later on a rolling plan. */
export function addInterval(d: Date, interval: Interval, count: number): Date {
  switch (interval) {
    case "DAY":
      return new Date(d.getTime() + count * DAY_MS);
    case "WEEK":
      return new Date(d.getTime() + count * 7 * DAY_MS);
    case "MONTH":
      return addMonths(d, count);
    case "YEAR":
      return addMonths(d, 12 * count);
  }
}

/** The anchor instant in a given month (day clamped), at the given time of day. */
function anchorIn(year: number, month0: number, anchorDay: number, timeOfDayMs: number): Date {
  const day = Math.min(anchorDay, daysInMonth(year, month0));
  return new Date(Date.UTC(year, month0, day) + timeOfDayMs);
}

function timeOfDay(d: Date): number {
  return d.getTime() - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/**
 * The first anchor at or after `from` (strictly after when `strict`). The anchor keeps the time
 * of day of `timeSource` (default `from`).
 */
export function anchorOnOrAfter(from: Date, s: AnchoredSchedule, opts: { strict?: boolean; timeSource?: Date } = {}): Date {
  if (!Number.isInteger(s.anchorDay) || s.anchorDay < 1 || s.anchorDay > 31) throw new RangeError(`bad anchor_day ${s.anchorDay}`);
  const months = new Set(s.anchorMonths.length ? s.anchorMonths : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  const tod = timeOfDay(opts.timeSource ?? from);
  let y = from.getUTCFullYear();
  let m0 = from.getUTCMonth();
  // At most 13 months ahead contain every listed month once.
  for (let i = 0; i < 26; i++) {
    if (months.has(m0 + 1)) {
      const a = anchorIn(y, m0, s.anchorDay, tod);
      if (opts.strict ? a.getTime() > from.getTime() : a.getTime() >= from.getTime()) return a;
    }
    m0++;
    if (m0 === 12) {
      m0 = 0;
      y++;
    }
  }
  throw new RangeError("no anchor found within two years");
}

/**
 * The date a skip moves the next charge to: exactly one billing interval later (rolling), or the
 * next anchor strictly after the current charge (anchored).
 */
export function skipTarget(current: Date, s: Schedule): Date {
  if (s.mode === "rolling") return addInterval(current, s.interval, s.intervalCount);
  return anchorOnOrAfter(current, s, { strict: true });
}

/**
 * The date a reschedule actually sets: the requested date (rolling), or the first anchor on or
 * after it (anchored). On an anchored plan the requested date's day decides the anchor; the
 * anchor keeps the requested time of day.
 */
export function rescheduleTarget(requested: Date, s: Schedule): Date {
  if (s.mode === "rolling") return requested;
  return anchorOnOrAfter(requested, s);
}

export const FIVE_YEARS_MONTHS = 60;
