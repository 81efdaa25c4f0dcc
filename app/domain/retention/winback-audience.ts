// Win-back audience rules, the hold-out and the incremental figure (docs/decisions/115-winback-audience.md).
// Pure: the campaign job (not built yet) gathers the candidates (the mirror's cancelled contracts,
// their cancel reasons, Shopify's `defaultEmailAddress.marketingState`, the suppression list, the
// send ledger) and these functions decide who is sent to, who is held out and what the campaign
// added. Being pure and deterministic is what lets a re-run of the job decide exactly the same.
import { createHash } from "node:crypto";

/** Shopify's CustomerEmailAddressMarketingState (Admin API 2026-10); null when the customer has no e-mail. */
export type MarketingState = "INVALID" | "NOT_SUBSCRIBED" | "PENDING" | "SUBSCRIBED" | "UNSUBSCRIBED";

export interface WinbackRules {
  /** Cancel reasons the campaign targets (case-insensitive); empty = any reason, or none recorded. */
  reasons: string[];
  /** Only cancellations at most this many days old. */
  cancelledWithinDays: number;
  /** Wait this many days after the cancellation before sending. */
  delayDays: number;
  /** Share of the eligible audience never sent to, 0–50 (whole percent). */
  holdoutPercent: number;
}

export interface Candidate {
  customerId: string;
  contractId: string;
  cancelledAt: Date;
  reason: string | null;
  marketingState: MarketingState | null;
  /** The customer's address is on the shop's suppression list (a bounce, a complaint, an unsubscribe). */
  suppressed: boolean;
  /** The customer has a live subscription again, or a win-back already brought them back. */
  wonBack: boolean;
  /** This campaign already touched the customer (sent or held out). */
  alreadyTouched: boolean;
}

export type Exclusion = "too_old" | "waiting" | "reason" | "won_back" | "no_consent" | "suppressed" | "already_touched";

export interface Audience {
  send: Candidate[];
  holdout: Candidate[];
  excluded: Array<{ candidate: Candidate; why: Exclusion }>;
}

const DAY = 86_400_000;

/**
 * The hold-out draw: a hash of campaign and customer, so the same customer lands in the same group
 * on every run of the job and in no other campaign's pattern. Uniform over [0, 100).
 */
export function holdoutBucket(campaignId: string, customerId: string): number {
  const h = createHash("sha256").update(`${campaignId}\u0000${customerId}`).digest();
  return h.readUInt32BE(0) % 100;
}

/** Why a candidate is not in the eligible audience (checked in this order), or null when it is. */
export function exclusionOf(rules: WinbackRules, c: Candidate, now: Date): Exclusion | null {
  const age = now.getTime() - c.cancelledAt.getTime();
  if (c.alreadyTouched) return "already_touched";
  if (age > rules.cancelledWithinDays * DAY) return "too_old";
  if (age < rules.delayDays * DAY) return "waiting";
  if (rules.reasons.length > 0) {
    const wanted = new Set(rules.reasons.map((r) => r.toLowerCase()));
    if (!c.reason || !wanted.has(c.reason.toLowerCase())) return "reason";
  }
  if (c.wonBack) return "won_back";
  // Consent and suppression are checked before the draw, so both groups are equally reachable and
  // the hold-out measures the e-mail, not the consent.
  if (c.marketingState !== "SUBSCRIBED") return "no_consent";
  if (c.suppressed) return "suppressed";
  return null;
}

/**
 * One decision per customer: their most recent cancellation is the candidate (a customer who
 * cancelled two contracts gets one e-mail). Eligible customers are split by holdoutBucket.
 */
export function selectAudience(campaignId: string, rules: WinbackRules, candidates: Candidate[], now: Date): Audience {
  const latest = new Map<string, Candidate>();
  for (const c of candidates) {
    const seen = latest.get(c.customerId);
    // A customer touched once stays touched whichever of their contracts is newest.
    const touched = c.alreadyTouched || seen?.alreadyTouched === true;
    const pick =
      !seen || c.cancelledAt > seen.cancelledAt || (c.cancelledAt.getTime() === seen.cancelledAt.getTime() && c.contractId > seen.contractId) ? c : seen;
    latest.set(c.customerId, { ...pick, alreadyTouched: touched, wonBack: pick.wonBack || c.wonBack || seen?.wonBack === true });
  }
  const out: Audience = { send: [], holdout: [], excluded: [] };
  for (const c of [...latest.values()].sort((a, b) => a.customerId.localeCompare(b.customerId))) {
    const why = exclusionOf(rules, c, now);
    if (why) out.excluded.push({ candidate: c, why });
    else if (holdoutBucket(campaignId, c.customerId) < rules.holdoutPercent) out.holdout.push(c);
    else out.send.push(c);
  }
  return out;
}

export interface GroupOutcome {
  /** Customers in the group. */
  size: number;
  /** Of those, customers with a new contract within the attribution window. */
  reactivated: number;
  /** Their new contracts' charges within the window, minor units of the campaign's currency. */
  recoveredMinor: number;
}

export interface Incrementality {
  sentRate: number | null;
  holdoutRate: number | null;
  /** Reactivations the e-mail added: sent.reactivated minus what the hold-out's rate predicts for the sent group. */
  incrementalReactivations: number | null;
  /** Recovered revenue the e-mail added, minor units: sent.recoveredMinor minus the hold-out's per-customer figure times sent.size. */
  incrementalRecoveredMinor: number | null;
  /** The raw figure every other app reports, for comparison. */
  rawRecoveredMinor: number;
}

const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);
const round4 = (v: number | null): number | null => (v === null ? null : Math.round(v * 10_000) / 10_000);

/**
 * What the campaign added over doing nothing. Without a hold-out (or an empty one) there is no
 * baseline: the incremental figures are null, never the raw figure passed off as incremental.
 */
export function incrementality(sent: GroupOutcome, holdout: GroupOutcome): Incrementality {
  const sentRate = ratio(sent.reactivated, sent.size);
  const holdoutRate = ratio(holdout.reactivated, holdout.size);
  const perHeldOut = ratio(holdout.recoveredMinor, holdout.size);
  return {
    sentRate: round4(sentRate),
    holdoutRate: round4(holdoutRate),
    incrementalReactivations: holdoutRate === null ? null : round4(sent.reactivated - holdoutRate * sent.size),
    incrementalRecoveredMinor: perHeldOut === null ? null : Math.round(sent.recoveredMinor - perHeldOut * sent.size),
    rawRecoveredMinor: sent.recoveredMinor,
  };
}
