// The audit trail (docs/decisions/125-audit-log.md). Every write of the app leaves one row: the
// actor (app/infra/actor.server.ts), the request id, the action, the target, the outcome and the
// fields that changed. Where the change is the app's own rows, the row is written in the change's
// transaction (`audited`), so a rolled-back change leaves none; a refusal (an ApiError: bad input,
// a state conflict, the platform's no) leaves one row with outcome "failure" and its error code.
// Where Shopify holds the change (subscription writes, plans), the row is written as soon as
// Shopify's answer is known (`auditOutcome`).
import { randomBytes } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { currentActor } from "../../infra/actor.server";

type Tx = Prisma.TransactionClient;

export type AuditTargetType = "subscription" | "api_key" | "webhook_endpoint" | "export" | "import" | "plan" | "bundle" | "campaign" | "settings" | "gift";

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
}

export type FieldValue = string | number | boolean | null | (string | number | boolean)[];
export type Changes = Record<string, { before: FieldValue; after: FieldValue }>;

/** Field names that never enter the trail, whatever a caller passes (secrets, their hashes and ciphertexts). */
export const SECRET_FIELD = /secret|token|salt|hash|password|ciphertext|private|dkim/i;

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** aud_ + 10 time characters + 16 random ones (the request id's shape). */
export function newAuditId(now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b & 31];
  return `aud_${time}${rand}`;
}

const same = (a: FieldValue, b: FieldValue) => JSON.stringify(a) === JSON.stringify(b);

/** The fields among `fields` whose value differs between before and after (a created record: before null). */
export function diffFields<T extends object>(before: T | null, after: T | null, fields: readonly (keyof T & string)[]): Changes {
  const out: Changes = {};
  for (const f of fields) {
    if (SECRET_FIELD.test(f)) continue;
    const b = normalise(before ? (before as Record<string, unknown>)[f] : null);
    const a = normalise(after ? (after as Record<string, unknown>)[f] : null);
    if (!same(b, a)) out[f] = { before: b, after: a };
  }
  return out;
}

function normalise(v: unknown): FieldValue {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map((x) => (x instanceof Date ? x.toISOString() : (x as string | number | boolean)));
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "bigint") return Number(v);
  return JSON.stringify(v);
}

function scrub(changes: Changes): Changes {
  return Object.fromEntries(Object.entries(changes).filter(([k]) => !SECRET_FIELD.test(k)));
}

export interface AuditRecord {
  shopId: string;
  action: string;
  target: AuditTarget;
  outcome: "success" | "failure";
  errorCode?: string | null;
  changes?: Changes;
}

/** One audit row, by the given client (a transaction's, so it commits or rolls back with the change). */
export async function recordAudit(db: Tx | typeof prisma, r: AuditRecord): Promise<void> {
  const { actor, requestId } = currentActor();
  await db.auditEvent.create({
    data: {
      id: newAuditId(),
      shopId: r.shopId,
      actorType: actor.type,
      actorId: actor.id,
      actorName: "name" in actor ? (actor.name ?? null) : null,
      requestId,
      action: r.action,
      targetType: r.target.type,
      targetId: r.target.id,
      outcome: r.outcome,
      errorCode: r.errorCode ?? null,
      changes: scrub(r.changes ?? {}),
    },
  });
}

const errorCodeOf = (err: unknown) => (err instanceof ApiError ? err.code : null);

/**
 * A refusal is recorded (outcome failure) in a statement of its own, since the change's
 * transaction is gone; anything else (a crash, a lost connection, a rolled-back transaction) is
 * not a decided outcome and leaves no row. The original error is rethrown either way.
 */
export async function recordRefusal(err: unknown, what: { shopId: string; action: string; target: AuditTarget }): Promise<never> {
  const code = errorCodeOf(err);
  // A retry racing its own first attempt under one Idempotency-Key is the same write, not another.
  if (code && code !== "idempotency_conflict") {
    await recordAudit(prisma, { ...what, outcome: "failure", errorCode: code }).catch(() => undefined);
  }
  throw err;
}

export interface AuditedChange<T> {
  result: T;
  /** When the target's id is known only once it exists (a created record). */
  targetId?: string;
  changes?: Changes;
}

/**
 * Runs a local change in one transaction together with its audit row. `check` (optional) runs
 * first, outside the transaction: validation whose refusal should be audited as a failure.
 */
export async function audited<T>(
  what: { shopId: string; action: string; target: AuditTarget },
  change: (tx: Tx) => Promise<AuditedChange<T>>,
  opts: { check?: () => Promise<void> | void } = {},
): Promise<T> {
  const inTx = async (tx: Tx) => {
    const done = await change(tx);
    await recordAudit(tx, { ...what, target: { ...what.target, id: done.targetId ?? what.target.id }, outcome: "success", changes: done.changes });
    return done.result;
  };
  try {
    await opts.check?.();
    return await prisma.$transaction(inTx);
  } catch (err) {
    return recordRefusal(err, what);
  }
}

/**
 * A change held by Shopify (the platform is the system of record): the row is written once its
 * answer is known: success with the fields that changed, or the refusal's failure.
 */
export async function auditOutcome<T>(
  what: { shopId: string; action: string; target: AuditTarget },
  run: () => Promise<T>,
  changesOf: (result: T) => Changes,
): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (err) {
    return recordRefusal(err, what);
  }
  await recordAudit(prisma, { ...what, outcome: "success", changes: changesOf(result) });
  return result;
}

/**
 * A change that answers its refusal as a value instead of throwing (the plan builder's form
 * errors, the billing policy form): `describe` says how it ended.
 */
export async function auditResult<T>(
  what: { shopId: string; action: string; target: AuditTarget },
  run: () => Promise<T>,
  describe: (result: T) => { ok: boolean; errorCode?: string; changes?: Changes; targetId?: string },
): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (err) {
    return recordRefusal(err, what);
  }
  const d = describe(result);
  await recordAudit(prisma, {
    ...what,
    target: { ...what.target, id: d.targetId ?? what.target.id },
    outcome: d.ok ? "success" : "failure",
    errorCode: d.ok ? null : (d.errorCode ?? "invalid_request"),
    changes: d.changes,
  });
  return result;
}
