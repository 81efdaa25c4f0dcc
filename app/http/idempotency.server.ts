// Idempotency of the subscription writes (docs/decisions/021-idempotency.md).
//
// The kernel (app/http/kernel.server.ts) calls `idempotencyHook` for every route with
// `requiresIdempotencyKey`, after auth, plan gate, scopes, input validation and the header check,
// so none of those ever touches a key. The Admin surface passes it as
// createSurface(..., { idempotency: idempotencyHook }). The write handler hands
// `beforeMutation` (below) to the domain write, which calls it after its own validation and
// ownership checks and right before the platform mutation.
//
//   1. A completed record under (shop, key): same request hash -> its stored response, byte for
//      byte, with `Idempotency-Replayed: true` (failures and 500s too); different hash -> 409
//      idempotency_conflict. A record still in flight -> 409 idempotency_conflict.
//   2. No record: the handler runs. Validation failures thrown before beforeMutation() never
//      claim the key, so they do not spend it (fix and retry with the same key).
//   3. beforeMutation() claims the key with INSERT ... ON CONFLICT DO NOTHING on the unique
//      (shop_id, key): the database, not a read-then-write race, decides the single winner.
//      A loser re-reads the row: same request completed -> replay; otherwise 409.
//   4. Once claimed, whatever the handler's Response is, it is stored and returned.
//   5. A claim carries a lease (IDEMPOTENCY_LEASE_MS) and the write's intent. A retry that finds
//      a claim without an outcome past its lease settles the first attempt: it re-reads the
//      contract from the platform; if the mutation is there, the outcome is stored and the
//      retry gets it as a replay; if not, the claim is released and the retry runs the write as
//      a first request would. The mutation runs at most once either way
//      (docs/decisions/035-idempotency-leases.md).
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomUUID } from "node:crypto";
import { prisma } from "../db.server";
import type { WriteIntent } from "../domain/subscriptions/writes.server";
import { env } from "../env.server";
import { ApiError } from "../infra/errors";
import { log } from "../infra/log.server";
import { errorResult, type IdempotencyHook } from "./kernel.server";
import type { RouteResult } from "./route";

export const REPLAYED_HEADER = "Idempotency-Replayed";
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** JSON with object keys sorted at every depth (array order kept): key order never matters. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}

function canonicalPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** sha256 over method, path (percent-decoded) and the canonical JSON body ("" when none). */
export function requestHash(method: string, path: string, rawBody: string): string {
  let body = "";
  if (rawBody.trim() !== "") {
    try {
      body = canonicalJson(JSON.parse(rawBody));
    } catch {
      body = `raw:${rawBody}`;
    }
  }
  return createHash("sha256").update(method.toUpperCase()).update("\n").update(canonicalPath(path)).update("\n").update(body).digest("hex");
}

interface StoredRecord {
  id: string;
  requestHash: string;
  responseStatus: number | null;
  responseHeaders: unknown;
  responseBody: string | null;
  createdAt: Date;
  leaseExpiresAt: Date | null;
  intent: unknown;
}

interface Scope {
  shopId: string;
  key: string;
  hash: string;
  claimId: string | null;
  /** Set when beforeMutation() lost the claim to an identical, completed request. */
  replay: StoredRecord | null;
}

const als = new AsyncLocalStorage<Scope>();

function replayResult(r: StoredRecord): RouteResult {
  const headers: Record<string, string> = { ...((r.responseHeaders ?? {}) as Record<string, string>), [REPLAYED_HEADER]: "true" };
  // The stored text is what JSON.stringify produced; parse + stringify gives the same bytes back.
  let body: unknown;
  try {
    body = r.responseBody ? JSON.parse(r.responseBody) : null;
  } catch {
    body = null;
  }
  return { status: r.responseStatus ?? 500, headers, body };
}

const conflictDifferent = () =>
  new ApiError("idempotency_conflict", "This Idempotency-Key was already used for a different request. Use a new key for a new request.");
const conflictInFlight = () =>
  new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still in progress. Retry later to receive its outcome.");

async function findRecord(shopId: string, key: string): Promise<StoredRecord | null> {
  const r = await prisma.idempotencyRecord.findUnique({
    where: { shopId_key: { shopId, key } },
    select: {
      id: true,
      requestHash: true,
      responseStatus: true,
      responseHeaders: true,
      responseBody: true,
      createdAt: true,
      leaseExpiresAt: true,
      intent: true,
    },
  });
  if (r && Date.now() - r.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
    // Past retention but not yet swept: forgotten. Delete exactly that row (a fresh claim by a
    // concurrent request has another id and survives).
    await prisma.idempotencyRecord.deleteMany({ where: { id: r.id } });
    return null;
  }
  return r;
}

/** What a record means for a request with `hash`: a replay, or a conflict to throw. */
function resolveExisting(r: StoredRecord, hash: string): RouteResult | ApiError {
  if (r.requestHash !== hash) return conflictDifferent();
  if (r.responseStatus === null) return conflictInFlight();
  return replayResult(r);
}

export interface IdempotentRequest {
  shopId: string;
  key: string;
  method: string;
  /** The request path (as in the URL; it is percent-decoded for hashing). */
  path: string;
  /** Exact body text ("" when none); hashed as canonical JSON. */
  rawBody: string;
  /** Stored with the outcome: a replay answers with the first request's id (body and header agree). */
  requestId: string;
}

/**
 * Runs `run` under the key. Conflicts found before running are thrown (ApiError
 * idempotency_conflict). Once the key is claimed, any outcome of `run` (result, ApiError, crash
 * as 500 internal_error) is stored and returned, so failures replay too.
 */
export async function withIdempotency(req: IdempotentRequest, run: () => Promise<RouteResult>): Promise<RouteResult> {
  const hash = requestHash(req.method, req.path, req.rawBody);
  for (let attempt = 0; ; attempt++) {
    const existing = await findRecord(req.shopId, req.key);
    if (!existing) break;
    if (existing.requestHash === hash && existing.responseStatus === null && leaseExpired(existing) && attempt < 2) {
      const settled = await settleExpired(existing, req);
      if (settled) return replayResult(settled);
      continue; // released: nothing was applied, so this request runs the write
    }
    const outcome = resolveExisting(existing, hash);
    if (outcome instanceof ApiError) throw outcome;
    return outcome;
  }
  const scope: Scope = { shopId: req.shopId, key: req.key, hash, claimId: null, replay: null };
  let result: RouteResult;
  try {
    result = await als.run(scope, run);
  } catch (err) {
    if (scope.replay) return replayResult(scope.replay);
    if (!scope.claimId) throw err; // failed before the claim: the key is not spent
    result = errorResult(err, req.requestId);
  }
  if (scope.replay) return replayResult(scope.replay);
  if (!scope.claimId) return result;
  const headers: Record<string, string> = { ...(result.headers ?? {}), "X-Service-Request-Id": req.requestId };
  await complete(scope.claimId, result.status ?? 200, headers, JSON.stringify(result.body ?? null));
  return { ...result, headers };
}

/** The kernel's IdempotencyHook for the Admin API subscription writes. */
export const idempotencyHook: IdempotencyHook = ({ ctx, idempotencyKey }, run) =>
  withIdempotency(
    {
      shopId: ctx.shop.id,
      key: idempotencyKey,
      method: ctx.request.method,
      path: new URL(ctx.request.url).pathname,
      rawBody: ctx.rawBody,
      requestId: ctx.requestId,
    },
    run,
  );

/** Stores the outcome unless the claim was settled by a retry meanwhile (its outcome stands). */
async function complete(id: string, status: number, headers: Record<string, string>, body: string): Promise<void> {
  try {
    const { count } = await prisma.idempotencyRecord.updateMany({
      where: { id, responseStatus: null },
      data: { responseStatus: status, responseHeaders: headers, responseBody: body, completedAt: new Date() },
    });
    if (count === 0) log.warn("idempotency: outcome not stored, the claim was settled by a retry after its lease", { recordId: id });
  } catch (err) {
    log.error("idempotency: could not store outcome", { err, recordId: id });
  }
}

const leaseMs = () => env().IDEMPOTENCY_LEASE_MS;

function leaseExpired(r: StoredRecord): boolean {
  const until = r.leaseExpiresAt ?? new Date(r.createdAt.getTime() + leaseMs());
  return until.getTime() < Date.now();
}

/**
 * How a claim's intent is settled, by its kind: the answer's body, or null when the mutation is
 * not on the platform. The surface that declares the writes registers its settler
 * (app/surfaces/admin/writes.ts: the domain settles, the surface shapes the answer), so this
 * layer stays below the surfaces.
 */
const SETTLERS: Record<string, (shopId: string, intent: never) => Promise<unknown | null>> = {};

export function settleClaimsOf<I>(kind: string, settle: (shopId: string, intent: I) => Promise<unknown | null>): void {
  SETTLERS[kind] = settle as (shopId: string, intent: never) => Promise<unknown | null>;
}

/**
 * Settles a claim whose lease ran out without an outcome (its process died mid-write). Returns
 * the stored record to replay, or null once the claim is released (nothing was applied).
 */
async function settleExpired(r: StoredRecord, req: IdempotentRequest): Promise<StoredRecord | null> {
  const kind = (r.intent as { kind?: string } | null)?.kind;
  const settle = kind ? SETTLERS[kind] : undefined;
  if (!settle) throw conflictInFlight(); // a claim from before leases carried intents: it ages out
  let body: unknown;
  try {
    body = await settle(req.shopId, r.intent as never);
  } catch (err) {
    log.warn("idempotency: could not settle an interrupted write; the retry is refused for now", { err, recordId: r.id });
    throw new ApiError(
      "idempotency_conflict",
      "The first request with this Idempotency-Key was interrupted and its outcome cannot be read from the platform right now. Retry later to receive it.",
    );
  }
  if (body === null) {
    await prisma.idempotencyRecord.deleteMany({ where: { id: r.id, responseStatus: null } });
    log.info("idempotency: interrupted write was not applied; its key is released to the retry", { recordId: r.id });
    return null;
  }
  await prisma.idempotencyRecord.updateMany({
    where: { id: r.id, responseStatus: null },
    data: { responseStatus: 200, responseHeaders: { "X-Service-Request-Id": req.requestId }, responseBody: JSON.stringify(body), completedAt: new Date() },
  });
  log.info("idempotency: interrupted write settled from the platform", { recordId: r.id });
  // Whoever stored the outcome first (this retry, a concurrent one, or the first attempt itself), that one stands.
  const stored = await findRecord(req.shopId, req.key);
  if (!stored || stored.responseStatus === null) throw conflictInFlight();
  return stored;
}

/**
 * Claims the current request's key; call right before the mutation. Outside withIdempotency
 * (domain tests, CLI) it does nothing. Throws ApiError idempotency_conflict when another request
 * holds the key (the kernel renders it; withIdempotency swaps in a replay when the holder was
 * the identical request and has completed).
 */
export async function beforeMutation(intent?: WriteIntent): Promise<void> {
  const scope = als.getStore();
  if (!scope || scope.claimId) return;
  const id = `idem_${randomUUID()}`;
  const inserted = await prisma.$executeRaw`
    INSERT INTO idempotency_records (id, shop_id, key, request_hash, created_at, lease_expires_at, intent)
    VALUES (${id}, ${scope.shopId}, ${scope.key}, ${scope.hash}, (now() AT TIME ZONE 'UTC'),
            (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseMs() / 1000}::float8), ${intent ? JSON.stringify(intent) : null}::jsonb)
    ON CONFLICT (shop_id, key) DO NOTHING`;
  if (inserted === 1) {
    scope.claimId = id;
    return;
  }
  const holder = await findRecord(scope.shopId, scope.key);
  if (!holder) throw conflictInFlight(); // swept between our insert and read: let the client retry
  const outcome = resolveExisting(holder, scope.hash);
  if (outcome instanceof ApiError) throw outcome;
  scope.replay = holder;
  throw conflictInFlight(); // replaced by the replay in withIdempotency
}
