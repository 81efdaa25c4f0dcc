// Charging (docs/decisions/080-billing-engine.md): one run of the billing scheduler for one shop.
// It reads the mirror's ACTIVE contracts whose next_billing_at has come (in due order, keyset
// pages), and for each decides from its billing cycle row what to do:
//   - no cycle yet: the charge on the due date (attempt 1);
//   - CHARGING with an attempt Shopify never confirmed (a crash, a timeout): the same attempt
//     again, with the same idempotency key, so Shopify answers the attempt it already made;
//   - DUNNING whose next retry has come: the next attempt;
//   - anything else (paid and awaiting the mirror, awaiting an outcome, failed): nothing.
// The idempotency key is derived from contract, cycle and attempt number, so a job run twice, two
// runners at once or a worker SIGKILLed mid-call never charge twice. Calls to Shopify run at most
// billingConcurrency() at a time per shop (more for a bucket that restores faster), and THROTTLED
// answers back off and retry.
// After charging, the same run settles attempts whose outcome webhook is overdue (overdue.server.ts)
// and sends the renewal reminders that have come due (reminders.server.ts).
import { randomUUID } from "node:crypto";
import type { BillingCycle } from "@prisma/client";
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { isPlatformError, knownBucket, platformFor, type ShopifyPort } from "../../platform/index.server";
import { reconcileContract } from "../subscriptions/mirror.server";
import { systemClock, type Clock } from "./clock.server";
import { settleOverdueOutcomes } from "./overdue.server";
import { sendDueReminders } from "./reminders.server";
import { forEachLimit, sleep } from "../../infra/async";

export interface ChargeLine {
  contractId: string;
  cycleAt: string;
  attempt: number;
  idempotencyKey: string;
  /** What the run did: asked Shopify for the attempt, or why not. */
  outcome: "charged" | "refused" | "throttled" | "unavailable";
  billingAttemptId: string | null;
  detail?: string;
}

export interface BillingRunSummary {
  shop: string;
  at: string;
  /** Due contracts looked at (including those in dunning or awaiting an outcome). */
  due: number;
  charged: ChargeLine[];
  /** Lines that were not charged this run (refused, throttled, Shopify unavailable). */
  notCharged: ChargeLine[];
  /** Attempts settled from Shopify's state because their outcome webhook never came. */
  overdueSettled: number;
  reminders: number;
}

/** The idempotency key of attempt `n` of the cycle due at `cycleAt` (docs/decisions/080). */
export function billingIdempotencyKey(contractGid: string, cycleAt: Date, n: number): string {
  const contract = contractGid.split("/").pop();
  return `sub-${contract}-${cycleAt.toISOString()}-${n}`;
}

const PAGE = 500;
/** subscriptionBillingAttemptCreate's cost: a mutation, 10 points (docs/decisions/095). */
const ATTEMPT_POINTS = 10;
/** The answer time billing plans for: what a loaded 2-core machine answered in (docs/decisions/165). */
const PLANNED_LATENCY_MS = 150;

/**
 * Calls in flight for one shop: enough to spend its bucket's restore rate at the planned latency
 * (docs/decisions/165-billing-throughput.md). A standard shop (100 points a second: 10 attempts)
 * keeps `base`; a Plus shop (1,000: 100 attempts a second) needs 15 in flight at 150 ms an answer.
 * Until the shop's first answer says how fast its bucket restores, `base`.
 */
export function billingConcurrency(bucket: { rate: number } | undefined, base: number, max: number): number {
  const needed = bucket ? Math.ceil((bucket.rate / ATTEMPT_POINTS) * (PLANNED_LATENCY_MS / 1000)) : 0;
  return Math.max(base, Math.min(max, needed));
}

// Shopify's THROTTLED userError (and a THROTTLED answer the client gave up on) is retried in the run.
const THROTTLE_RETRIES = 4;
const THROTTLE_BASE_MS = 250;

interface DueContract {
  id: string;
  contractGid: string;
  nextBillingAt: Date;
  chargeAmountCents: number | null;
  currencyCode: string;
}

/**
 * One billing run for one shop "as if the clock read" clock(). Returns what it charged.
 * Throws PlatformError(shop_unavailable) when the shop's token is gone (uninstalled).
 */
export async function runBilling(shopDomain: string, opts: { clock?: Clock; concurrency?: number } = {}): Promise<BillingRunSummary> {
  const now = (opts.clock ?? systemClock)();
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, installState: true } });
  const summary: BillingRunSummary = { shop: shopDomain, at: now.toISOString(), due: 0, charged: [], notCharged: [], overdueSettled: 0, reminders: 0 };
  if (!shop || shop.installState !== "INSTALLED") return summary;
  const platform = await platformFor(shopDomain, "billing");
  const { BILLING_SHOP_CONCURRENCY, BILLING_SHOP_CONCURRENCY_MAX } = env();
  // Read as each call starts: the shop's first answers tell how fast its bucket restores.
  const concurrency = () => opts.concurrency ?? billingConcurrency(knownBucket(shopDomain), BILLING_SHOP_CONCURRENCY, BILLING_SHOP_CONCURRENCY_MAX);

  let after: { at: Date; id: string } | null = null;
  for (;;) {
    const rows = await prisma.contract.findMany({
      where: {
        shopId: shop.id,
        status: "ACTIVE",
        createdByService: true,
        nextBillingAt: { lte: now },
        ...(after ? { OR: [{ nextBillingAt: { gt: after.at } }, { nextBillingAt: after.at, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ nextBillingAt: "asc" }, { id: "asc" }],
      take: PAGE,
      select: { id: true, contractGid: true, nextBillingAt: true, chargeAmountCents: true, currencyCode: true },
    });
    // nextBillingAt is not null here (the where clause bounds it).
    const page: DueContract[] = rows.flatMap((r) => (r.nextBillingAt ? [{ ...r, nextBillingAt: r.nextBillingAt }] : []));
    if (!page.length) break;
    summary.due += page.length;
    const cycles = await prisma.billingCycle.findMany({ where: { contractId: { in: page.map((c) => c.id) } } });
    const cycleOf = new Map(cycles.map((c) => [`${c.contractId}|${c.cycleAt.getTime()}`, c]));
    // Which attempt each contract needs now (most: attempt 1 of a new cycle), claimed for the
    // whole page in one statement, then asked of Shopify with bounded concurrency.
    const planned: Planned[] = [];
    for (const contract of page) {
      const n = await attemptToMake(cycleOf.get(`${contract.id}|${contract.nextBillingAt.getTime()}`), now);
      if (n !== null) planned.push({ contract, n, idempotencyKey: billingIdempotencyKey(contract.contractGid, contract.nextBillingAt, n) });
    }
    const claimed = await claimAttempts(shop.id, planned);
    const confirmed: { id: string; gid: string }[] = [];
    await forEachLimit(planned, concurrency, async (p) => {
      const row = claimed.get(p.idempotencyKey);
      if (!row) throw new Error(`billing: no attempt row for ${p.idempotencyKey}`);
      const line = await chargeContract(platform, p, row, confirmed);
      (line.outcome === "charged" ? summary.charged : summary.notCharged).push(line);
    });
    await recordConfirmed(confirmed);
    const last = page[page.length - 1];
    after = { at: last.nextBillingAt, id: last.id };
    if (page.length < PAGE) break;
  }
  summary.overdueSettled = await settleOverdueOutcomes(shop.id, platform);
  summary.reminders = await sendDueReminders(shop.id, now);
  return summary;
}

/** Which attempt of the cycle this run makes, or null when there is nothing to do now. */
async function attemptToMake(cycle: BillingCycle | undefined, now: Date): Promise<number | null> {
  if (!cycle) return 1;
  switch (cycle.status) {
    case "CHARGING": {
      if (cycle.attempts === 0) return 1;
      const last = await prisma.billingAttempt.findUnique({
        where: { cycleId_number: { cycleId: cycle.id, number: cycle.attempts } },
        select: { attemptGid: true, status: true },
      });
      // Shopify confirmed it: its outcome is on the way by webhook. Otherwise ask again, same key.
      return last && last.attemptGid === null && last.status === "PENDING" ? cycle.attempts : null;
    }
    case "DUNNING":
      return cycle.nextRetryAt && cycle.nextRetryAt.getTime() <= now.getTime() ? cycle.attempts + 1 : null;
    case "REFUSED":
      // Shopify refused while the contract was paused there; the mirror says ACTIVE again.
      return cycle.attempts + 1;
    case "PAID":
    case "FAILED":
      return null;
  }
}

interface Planned {
  contract: DueContract;
  n: number;
  idempotencyKey: string;
}

interface ClaimedRow {
  id: string;
  cycleId: string;
}

/** A timestamp parameter as the timestamp(3) columns hold it: UTC wall time, no zone. */
const utcWall = (d: Date) => d.toISOString().replace("T", " ").replace("Z", "");

/**
 * The claim: each planned attempt's cycle and attempt rows exist before Shopify is asked, so a
 * later run (or a concurrent one) derives the same attempt and key from them. One statement for
 * the page (bench/billing.ts: an interactive transaction per contract cost twice Shopify's own
 * call). An attempt row made by an earlier claim is read back instead of inserted.
 */
async function claimAttempts(shopId: string, planned: Planned[]): Promise<Map<string, ClaimedRow>> {
  if (!planned.length) return new Map();
  const rows = await prisma.$queryRaw<{ id: string; cycle_id: string; key: string }[]>`
    WITH input AS (
      SELECT * FROM unnest(
        ${planned.map(() => randomUUID())}::text[], ${planned.map((p) => p.contract.id)}::text[], ${planned.map((p) => p.contract.contractGid)}::text[],
        ${planned.map((p) => utcWall(p.contract.nextBillingAt))}::timestamp[], ${planned.map((p) => p.n)}::int[], ${planned.map((p) => p.idempotencyKey)}::text[],
        ${planned.map((p) => p.contract.chargeAmountCents)}::int[], ${planned.map((p) => p.contract.currencyCode)}::text[], ${planned.map(() => randomUUID())}::text[]
      ) AS t(cycle_id, contract_id, contract_gid, cycle_at, n, key, amount, currency, attempt_id)
    ), cycle AS (
      INSERT INTO billing_cycles (id, shop_id, contract_id, contract_gid, cycle_at, status, attempts, updated_at)
      SELECT cycle_id, ${shopId}, contract_id, contract_gid, cycle_at, 'CHARGING', n, now() FROM input
      ON CONFLICT (contract_id, cycle_at) DO UPDATE
        SET status = 'CHARGING', attempts = GREATEST(billing_cycles.attempts, EXCLUDED.attempts), next_retry_at = NULL, updated_at = now()
        -- A cycle settled since this run read it (its success webhook committed in between) stays
        -- settled: put back to CHARGING, no outcome would ever move it again. Its attempt row, if
        -- the plan names one, is read back below, and Shopify answers that attempt again.
        WHERE billing_cycles.status NOT IN ('PAID', 'FAILED')
      RETURNING id, contract_id, cycle_at
    ), attempt AS (
      INSERT INTO billing_attempts (id, shop_id, cycle_id, number, idempotency_key, amount_minor, currency_code)
      SELECT i.attempt_id, ${shopId}, c.id, i.n, i.key, i.amount, i.currency
      FROM input i JOIN cycle c ON c.contract_id = i.contract_id AND c.cycle_at = i.cycle_at
      ON CONFLICT DO NOTHING
      RETURNING id, cycle_id, idempotency_key AS key
    )
    SELECT id, cycle_id, key FROM attempt
    UNION ALL
    SELECT a.id, a.cycle_id, a.idempotency_key AS key
    FROM billing_attempts a JOIN cycle c ON a.cycle_id = c.id JOIN input i ON i.contract_id = c.contract_id AND i.cycle_at = c.cycle_at AND a.number = i.n`;
  const claimed = new Map(rows.map((r) => [r.key, { id: r.id, cycleId: r.cycle_id }]));
  // A concurrent run that inserted the same attempt row after this statement's snapshot was taken
  // makes ON CONFLICT skip it while the statement's own read cannot see it (READ COMMITTED reads
  // one snapshot per statement). A second statement, with a fresh snapshot, reads it back.
  const missing = planned.map((p) => p.idempotencyKey).filter((key) => !claimed.has(key));
  if (missing.length) {
    const late = await prisma.billingAttempt.findMany({
      where: { shopId, idempotencyKey: { in: missing } },
      select: { id: true, cycleId: true, idempotencyKey: true },
    });
    for (const r of late) claimed.set(r.idempotencyKey, { id: r.id, cycleId: r.cycleId });
  }
  return claimed;
}

/** The attempt ids Shopify answered, recorded for the page in one statement. */
async function recordConfirmed(confirmed: { id: string; gid: string }[]): Promise<void> {
  if (!confirmed.length) return;
  await prisma.$executeRaw`
    UPDATE billing_attempts a SET attempt_gid = v.gid
    FROM unnest(${confirmed.map((c) => c.id)}::text[], ${confirmed.map((c) => c.gid)}::text[]) AS v(id, gid)
    WHERE a.id = v.id AND a.attempt_gid IS NULL`;
}

async function chargeContract(platform: ShopifyPort, p: Planned, row: ClaimedRow, confirmed: { id: string; gid: string }[]): Promise<ChargeLine> {
  const { contract, n, idempotencyKey } = p;
  const cycleAt = contract.nextBillingAt;
  const line: ChargeLine = {
    contractId: contract.contractGid,
    cycleAt: cycleAt.toISOString(),
    attempt: n,
    idempotencyKey,
    outcome: "charged",
    billingAttemptId: null,
  };
  for (let tries = 0; ; tries++) {
    try {
      const made = await platform.createBillingAttempt(contract.contractGid, { idempotencyKey, cycleDate: cycleAt.toISOString() });
      confirmed.push({ id: row.id, gid: made.id });
      line.billingAttemptId = made.id;
      return line;
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      if (err.kind === "shop_unavailable") throw err;
      if (err.code === "THROTTLED") {
        if (tries < THROTTLE_RETRIES) {
          await sleep(THROTTLE_BASE_MS * 2 ** tries);
          continue;
        }
        // The attempt stays unconfirmed: the next run asks again with the same key.
        return { ...line, outcome: "throttled", detail: err.message };
      }
      if (err.kind === "state_conflict" || err.kind === "invalid_request") {
        // Paused, cancelled or gone on Shopify: nothing was charged. The mirror catches up now.
        await prisma.$transaction([
          prisma.billingAttempt.update({ where: { id: row.id }, data: { status: "REFUSED", errorCode: err.code ?? null, completedAt: new Date() } }),
          prisma.billingCycle.update({ where: { id: row.cycleId }, data: { status: "REFUSED", lastErrorCode: err.code ?? null } }),
        ]);
        await reconcileContract(platform.shop, contract.contractGid).catch((e) => log.warn("billing: reconcile after a refusal failed", { err: e }));
        return { ...line, outcome: "refused", detail: `${err.code ?? err.kind}: ${err.message}` };
      }
      // Unavailable (5xx, network, timeout): it may or may not have been made; the next run asks
      // again with the same key, which Shopify answers with the attempt if it exists.
      return { ...line, outcome: "unavailable", detail: err.message };
    }
  }
}
