// The schedule engine: every billing and shipment date the app computes comes from here
// (docs/decisions/110-schedule-engine.md). Pure: no clock, no database, no Shopify.
//
// Dates are calendar days in the shop's IANA time zone (Shopify's `shop { ianaTimezone }`): an
// anchor "the 15th" is the 15th on the shop's wall clock, whatever the UTC offset that day. An
// instant moved by the engine keeps its local time of day (a 09:00 charge stays at 09:00 local,
// across a daylight-saving change).
//
// Rolling plans bill every `intervalCount` intervals from the subscriber's own date; a month
// step clamps to the month's last day (Jan 31 + 1 month = Feb 28/29) and always counts from the
// date the cycle was anchored on, so Jan 31 -> Feb 28 -> Mar 28 is avoided by callers that keep
// the contract's anchor (sequence() does).
//
// Anchored plans bill on `anchorDay` (clamped to the month's length: 31 in February is the 28th
// or 29th) of each month in `anchorMonths`, or, when that is empty, every `intervalCount` months
// counted from the subscriber's first anchor. The first charge follows Shopify's
// preAnchorBehavior with the cutoff (/docs#tag/Admin-API:-Plans):
//   NEXT: the order waits for the next anchor; inside the cutoff (fewer than cutoffDays days
//         before it) it skips to the anchor after. The first charge is on that anchor.
//   ASAP: the order is charged and shipped at once and renews on the next anchor; inside the
//         cutoff the first delivery waits for the next anchor and the renewal is the one after.

export type Interval = "DAY" | "WEEK" | "MONTH" | "YEAR";
export type PreAnchorBehavior = "NEXT" | "ASAP";

export interface RollingSchedule {
  mode: "rolling";
  interval: Interval;
  intervalCount: number;
}

export interface AnchoredSchedule {
  mode: "anchored";
  anchorDay: number;
  /** 1..12; empty = every `intervalCount` months from the subscriber's first anchor. */
  anchorMonths: number[];
  /** Months between charges when anchorMonths is empty (default 1). */
  intervalCount?: number;
  cutoffDays?: number;
  preAnchorBehavior?: PreAnchorBehavior;
  /** Day of month boxes ship (clamped like anchorDay); null/undefined = on the charge day. */
  shipDay?: number | null;
}

export type Schedule = RollingSchedule | AnchoredSchedule;

/** A calendar day: month 1..12. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

// ---- calendar arithmetic (time-zone free) --------------------------------------------------------

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const dayNumber = (d: CivilDate) => Math.round(Date.UTC(d.year, d.month - 1, d.day) / DAY_MS);

function fromDayNumber(n: number): CivilDate {
  const t = new Date(n * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export const compareCivil = (a: CivilDate, b: CivilDate) => dayNumber(a) - dayNumber(b);
export const addDays = (d: CivilDate, n: number): CivilDate => fromDayNumber(dayNumber(d) + n);
export const civilIso = (d: CivilDate) => `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

export function parseCivil(s: string): CivilDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > daysInMonth(d.year, d.month)) return null;
  return d;
}

/** `day` of the given month, clamped to its length. */
function clampedDay(year: number, month: number, day: number): CivilDate {
  return { year, month, day: Math.min(day, daysInMonth(year, month)) };
}

/** Whole months later, keeping `day` (clamped): the day to keep is passed so clamping never drifts. */
export function addCivilMonths(d: CivilDate, months: number, keepDay = d.day): CivilDate {
  const m0 = d.month - 1 + months;
  return clampedDay(d.year + Math.floor(m0 / 12), (((m0 % 12) + 12) % 12) + 1, keepDay);
}

function addCivilInterval(d: CivilDate, interval: Interval, count: number, keepDay = d.day): CivilDate {
  switch (interval) {
    case "DAY":
      return addDays(d, count);
    case "WEEK":
      return addDays(d, 7 * count);
    case "MONTH":
      return addCivilMonths(d, count, keepDay);
    case "YEAR":
      return addCivilMonths(d, 12 * count, keepDay);
  }
}

// ---- time zones ------------------------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws RangeError for a zone Intl does not know. */
export function assertTimeZone(timeZone: string): void {
  formatter(timeZone);
}

interface Wall extends CivilDate {
  /** Milliseconds since local midnight. */
  timeMs: number;
}

/** The shop's wall clock at an instant. */
export function wallClock(at: Date, timeZone: string): Wall {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(at)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    timeMs: ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000 + at.getUTCMilliseconds(),
  };
}

export const localDate = (at: Date, timeZone: string): CivilDate => {
  const w = wallClock(at, timeZone);
  return { year: w.year, month: w.month, day: w.day };
};

/** The instant the shop's wall clock shows `d` at `timeMs` (a time skipped by DST moves forward). */
export function instantAt(d: CivilDate, timeMs: number, timeZone: string): Date {
  const wallAsUtc = Date.UTC(d.year, d.month - 1, d.day) + timeMs;
  let guess = wallAsUtc;
  for (let i = 0; i < 3; i++) {
    const w = wallClock(new Date(guess), timeZone);
    const shown = Date.UTC(w.year, w.month - 1, w.day) + w.timeMs;
    const diff = wallAsUtc - shown;
    if (diff === 0) break;
    guess += diff;
  }
  return new Date(guess);
}

// ---- anchors -----------------------------------------------------------------------------------------

function checkAnchored(s: AnchoredSchedule): void {
  if (!Number.isInteger(s.anchorDay) || s.anchorDay < 1 || s.anchorDay > 31) throw new RangeError(`bad anchor_day ${s.anchorDay}`);
  for (const m of s.anchorMonths) if (!Number.isInteger(m) || m < 1 || m > 12) throw new RangeError(`bad anchor month ${m}`);
  if (s.shipDay != null && (!Number.isInteger(s.shipDay) || s.shipDay < 1 || s.shipDay > 31)) throw new RangeError(`bad ship_day ${s.shipDay}`);
  if ((s.cutoffDays ?? 0) < 0) throw new RangeError(`bad cutoff_days ${s.cutoffDays}`);
}

function checkRolling(s: RollingSchedule): void {
  if (!Number.isInteger(s.intervalCount) || s.intervalCount < 1) throw new RangeError(`bad interval_count ${s.intervalCount}`);
}

const stepMonths = (s: AnchoredSchedule) => Math.max(1, s.intervalCount ?? 1);

/** Whether `d` is an anchor date of the plan (any month when anchorMonths is empty). */
export function isAnchorDate(d: CivilDate, s: AnchoredSchedule): boolean {
  if (s.anchorMonths.length && !s.anchorMonths.includes(d.month)) return false;
  return d.day === Math.min(s.anchorDay, daysInMonth(d.year, d.month));
}

/** The first anchor date on or after `from` (strictly after when `strict`), in any anchor month. */
export function anchorOnOrAfterDate(from: CivilDate, s: AnchoredSchedule, strict = false): CivilDate {
  checkAnchored(s);
  for (let i = 0; i < 14; i++) {
    const c = addCivilMonths({ year: from.year, month: from.month, day: 1 }, i, s.anchorDay);
    if (s.anchorMonths.length && !s.anchorMonths.includes(c.month)) continue;
    const cmp = compareCivil(c, from);
    if (strict ? cmp > 0 : cmp >= 0) return c;
  }
  throw new RangeError("no anchor within a year");
}

/** The anchor one step after the anchor `current` (next listed month, or intervalCount months on). */
function nextAnchorDate(current: CivilDate, s: AnchoredSchedule): CivilDate {
  if (s.anchorMonths.length) return anchorOnOrAfterDate(current, s, true);
  return addCivilMonths(current, stepMonths(s), s.anchorDay);
}

// ---- the engine's questions ----------------------------------------------------------------------------

/** The charge after a charge on `charged` (the date a successful charge moves the contract to). */
export function nextChargeDate(charged: CivilDate, s: Schedule, keepDay = charged.day): CivilDate {
  if (s.mode === "rolling") {
    checkRolling(s);
    return addCivilInterval(charged, s.interval, s.intervalCount, keepDay);
  }
  checkAnchored(s);
  // A contract moved off its anchor (an old reschedule) rejoins the calendar at the next anchor.
  if (!isAnchorDate(charged, s)) return anchorOnOrAfterDate(charged, s, true);
  return nextAnchorDate(charged, s);
}

/** The day a box charged on `charge` ships: on the charge day, or the first ship_day on or after it. */
export function shipmentDate(charge: CivilDate, s: Schedule): CivilDate {
  if (s.mode === "rolling" || s.shipDay == null) return charge;
  const same = clampedDay(charge.year, charge.month, s.shipDay);
  return compareCivil(same, charge) >= 0 ? same : addCivilMonths(charge, 1, s.shipDay);
}

export interface SignupDates {
  /** The first charge: the sign-up day (rolling, ASAP) or the anchor the order waits for (NEXT). */
  firstCharge: CivilDate;
  firstShipment: CivilDate;
  /** The contract's next billing date after checkout: the second charge, or the first when NEXT defers it. */
  contractNextBilling: CivilDate;
}

/** What a sign-up on `signup` gets: first charge, first shipment and the contract's next billing date. */
export function signupDates(signup: CivilDate, s: Schedule): SignupDates {
  if (s.mode === "rolling") {
    checkRolling(s);
    return { firstCharge: signup, firstShipment: signup, contractNextBilling: nextChargeDate(signup, s) };
  }
  checkAnchored(s);
  const a1 = anchorOnOrAfterDate(signup, s);
  const insideCutoff = compareCivil(a1, signup) < (s.cutoffDays ?? 0);
  // Inside the cutoff the order skips this anchor for the following one (any month's anchor day
  // when the months follow the subscriber's cadence).
  const a2 = insideCutoff ? anchorOnOrAfterDate(a1, s, true) : a1;
  if ((s.preAnchorBehavior ?? "ASAP") === "NEXT") return { firstCharge: a2, firstShipment: shipmentDate(a2, s), contractNextBilling: a2 };
  // ASAP: charged at checkout; ships now unless inside the cutoff (then with the next anchor's batch).
  const renewal = insideCutoff ? nextAnchorDate(a1, s) : a1;
  return { firstCharge: signup, firstShipment: insideCutoff ? shipmentDate(a1, s) : signup, contractNextBilling: renewal };
}

/** The first `count` charge dates of a sign-up on `signup` (the first charge included). */
export function chargeSequence(signup: CivilDate, s: Schedule, count: number): CivilDate[] {
  const first = signupDates(signup, s);
  const out: CivilDate[] = [first.firstCharge];
  if (count > 1 && compareCivil(first.contractNextBilling, first.firstCharge) > 0) out.push(first.contractNextBilling);
  // Rolling month steps count from the sign-up day so the 31st stays the 31st where it exists.
  const keepDay = s.mode === "rolling" ? signup.day : undefined;
  while (out.length < count) {
    const last = out[out.length - 1];
    out.push(nextChargeDate(last, s, keepDay ?? last.day));
  }
  return out.slice(0, count);
}

/** Where a skip moves the next charge: exactly one step of the schedule. */
export function skipDate(current: CivilDate, s: Schedule): CivilDate {
  return nextChargeDate(current, s);
}

/** Where a reschedule lands: the requested day (rolling) or the first anchor on or after it. */
export function rescheduleDate(requested: CivilDate, s: Schedule): CivilDate {
  if (s.mode === "rolling") return requested;
  return anchorOnOrAfterDate(requested, s);
}

// ---- instants: the same questions for a contract's timestamps --------------------------------------

/** Moves `at` to the day `f` gives for its local date, keeping its local time of day. */
export function moveInstant(at: Date, timeZone: string, f: (d: CivilDate) => CivilDate): Date {
  const w = wallClock(at, timeZone);
  return instantAt(f(w), w.timeMs, timeZone);
}

export const nextChargeAfter = (charged: Date, s: Schedule, timeZone: string) => moveInstant(charged, timeZone, (d) => nextChargeDate(d, s));
export const skipTarget = (current: Date, s: Schedule, timeZone: string) => moveInstant(current, timeZone, (d) => skipDate(d, s));
export const rescheduleTarget = (requested: Date, s: Schedule, timeZone: string) => moveInstant(requested, timeZone, (d) => rescheduleDate(d, s));

/** Whole months later in UTC, the day clamped (the five-year typo guard and the portal's window). */
export function addMonths(d: Date, months: number): Date {
  const c = addCivilMonths({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, months);
  return new Date(Date.UTC(c.year, c.month - 1, c.day) + (d.getTime() - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())));
}

export const FIVE_YEARS_MONTHS = 60;
