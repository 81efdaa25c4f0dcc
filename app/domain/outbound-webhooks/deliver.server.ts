// One delivery attempt: the worker's job (docs/decisions/052-webhook-delivery.md).
//
// POST the event's body, signed, to the endpoint, with the URL rules checked again as the socket
// connects (url-rules.server.ts pinnedLookup). Any 2xx delivers; a 3xx is a failure (redirects are
// never followed); 410 exhausts at once; anything else fails and the next attempt is scheduled on
// the ladder 0 s, 30 s, 2 m, 10 m, 1 h, 6 h; after the sixth the delivery is exhausted. The
// receiver's body is never read or stored (discarded unread so the connection can be reused);
// last_error is composed here. Ten consecutive exhausted deliveries disable the endpoint; any
// success resets the count. A manual delivery (test, resend, recover) makes one attempt, no ladder,
// and its failure does not count towards disabling.
//
// Safe to run twice (a crashed worker's job runs again): the row is moved only by the job of the
// attempt it expects next, with a conditional UPDATE, so a second copy records nothing.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { Agent, request } from "undici";
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import { hotQuery } from "../../infra/pg.server";
import { Batcher } from "../../infra/batcher";
import { env } from "../../env.server";
import { log } from "../../infra/log.server";
import { open } from "../../infra/secret-box.server";
import type { WebhookAttemptPayload } from "../../infra/job-payloads";
import { DISABLE_AFTER_EXHAUSTED, RETRY_LADDER_MS } from "./catalogue";
import { enqueueAttempts } from "./jobs.server";
import { signatureHeader } from "./signature";
import { parseEndpointUrl, pinnedLookup, resolveAllowed, UrlRuleError } from "./url-rules.server";

/** Time as the delivery code sees it; tests pass their own to check the ladder exactly. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export const USER_AGENT = "SERVICE-Webhooks/1.0";
/** Bytes of a receiver's answer discarded (unread) so its connection can be reused; more closes it. */
const DISCARD_LIMIT = 16 * 1024;

export const secretContext = (endpointId: string) => `webhook-endpoint:${endpointId}`;

let agent: Agent | undefined;
function deliveryAgent(): Agent {
  agent ??= new Agent({
    connect: { lookup: pinnedLookup, timeout: env().WEBHOOK_TIMEOUT_MS },
    keepAliveTimeout: 30_000,
    maxRedirections: 0,
  });
  return agent;
}

export async function closeDeliveryAgent(): Promise<void> {
  const a = agent;
  agent = undefined;
  await a?.close();
}

/** The body every attempt of an event sends (byte for byte the same on every retry). */
export function deliveryBody(event: { id: string; type: string; createdAt: Date; data: Prisma.JsonValue; test: boolean }, shopDomain: string): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    api_version: "v1",
    created_at: event.createdAt.toISOString(),
    shop_domain: shopDomain,
    data: event.data,
    ...(event.test ? { test: true } : {}),
  });
}

type SendResult = { delivered: true; code: number } | { delivered: false; code: number | null; error: string; gone: boolean };

function describeError(err: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `timed out after ${timeoutMs} ms without a response`;
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code ?? e?.cause?.code;
  if (code === "EWEBHOOKADDRESS" || err instanceof UrlRuleError) return `refused by the URL rules: ${(err as Error).message}`;
  if (code === "UND_ERR_CONNECT_TIMEOUT") return `connection timed out after ${timeoutMs} ms`;
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return `timed out after ${timeoutMs} ms without a response`;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") return "connection closed before a response";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host does not resolve";
  if (code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS handshake failed (${code})`;
  return `request failed${code ? ` (${code})` : ""}`;
}

/**
 * The process's outbound requests in flight, at most WEBHOOK_MAX_IN_FLIGHT: a job sends its
 * event's deliveries at once (up to ten), so the worker's job concurrency alone does not bound
 * them. Waiters go in arrival order.
 */
let inFlight = 0;
const waiting: Array<() => void> = [];
async function sendSlot<T>(work: () => Promise<T>): Promise<T> {
  if (inFlight >= env().WEBHOOK_MAX_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  else inFlight++;
  try {
    return await work();
  } finally {
    // The slot passes on to the next waiter (inFlight stays as it is), or is freed.
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  }
}

/**
 * An attempt's deadline: WEBHOOK_TIMEOUT_MS for the whole attempt (connecting, the response's
 * headers, its discarded body), then "abort". undici takes an EventEmitter as a request's signal;
 * one costs far less to make than an AbortSignal, of which the worker made one per delivery
 * (profiled under npm run bench:webhooks).
 */
class Deadline extends EventEmitter {
  aborted = false;
  private readonly timer: NodeJS.Timeout;
  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.emit("abort");
    }, ms);
  }
  clear(): void {
    clearTimeout(this.timer);
  }
}

async function send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
  const timeoutMs = env().WEBHOOK_TIMEOUT_MS;
  try {
    // IP literals never reach the agent's lookup: they are checked here. Names are checked (and
    // the approved address pinned) by pinnedLookup when the connection is made.
    const { host, literal } = parseEndpointUrl(url);
    if (literal) await resolveAllowed(host);
  } catch (err) {
    return { delivered: false, code: null, error: describeError(err, timeoutMs, false), gone: false };
  }
  const deadline = new Deadline(timeoutMs);
  try {
    const res = await request(url, {
      method: "POST",
      headers,
      body,
      dispatcher: deliveryAgent(),
      signal: deadline,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await res.body.dump({ limit: DISCARD_LIMIT }).catch(() => undefined);
    const code = res.statusCode;
    if (code >= 200 && code < 300) return { delivered: true, code };
    if (code >= 300 && code < 400) return { delivered: false, code, error: `HTTP ${code}: redirects are not followed`, gone: false };
    if (code === 410) return { delivered: false, code, error: "HTTP 410 Gone: retries stopped", gone: true };
    return { delivered: false, code, error: `HTTP ${code} from the endpoint`, gone: false };
  } catch (err) {
    return { delivered: false, code: null, error: describeError(err, timeoutMs, deadline.aborted), gone: false };
  } finally {
    deadline.clear();
  }
}

export type AttemptResult = "delivered" | "failed" | "exhausted" | "stale" | "settled" | "gone";

interface AttemptRow {
  id: string;
  /** The delivery's created_at: the second half of its key, written on its attempts (docs/decisions/169). */
  createdAt: Date;
  endpointId: string;
  status: string;
  attempts: number;
  manual: boolean;
  url: string;
  enabled: boolean;
  secretCiphertext: string;
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  eventData: Prisma.JsonValue;
  eventTest: boolean;
  shopDomain: string;
  installState: string;
}

/**
 * Everything an attempt needs: delivery, endpoint, event and shop in one SELECT. This and
 * recordAttempt are the two statements every delivery pays for, so they run on the hot-path pool
 * as named prepared statements (docs/decisions/007), and the concurrent jobs of a worker process
 * share them: the attempts that start while a load is running are read together by the next one
 * (app/infra/batcher.ts; docs/decisions/077, measured by npm run bench:webhooks).
 */
const loads = new Batcher<string, AttemptRow | null>(
  async (ids) => {
    const rows = await hotQuery<AttemptRow>(
      Prisma.sql`
      SELECT d.id, d.created_at AS "createdAt", d.endpoint_id AS "endpointId", d.status::text AS status, d.attempts, d.manual,
             e.url, e.enabled, e.secret_ciphertext AS "secretCiphertext",
             ev.id AS "eventId", ev.type AS "eventType", ev.created_at AS "eventCreatedAt", ev.data AS "eventData", ev.test AS "eventTest",
             s.domain AS "shopDomain", s.install_state::text AS "installState"
      FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id
      JOIN events ev ON ev.id = d.event_id
      JOIN shops s ON s.id = d.shop_id
      WHERE d.id = ANY(${ids}::text[])`,
      { name: "webhook-attempt-load" },
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  },
  { maxBatch: 256, maxInFlight: 1 },
);

const loadAttempt = (deliveryId: string) => loads.add(deliveryId);

/**
 * Signing secrets, opened once per process: keyed by the endpoint and its sealed value, so a
 * secret sealed anew (a key rotation re-seals) is opened anew, and an entry can never be stale.
 */
const openedSecrets = new Map<string, string>();
const OPENED_SECRETS_MAX = 1_000;

function endpointSecret(endpointId: string, ciphertext: string): string {
  const cacheKey = `${endpointId}\n${ciphertext}`;
  let secret = openedSecrets.get(cacheKey);
  if (secret === undefined) {
    secret = open(ciphertext, secretContext(endpointId));
    if (openedSecrets.size >= OPENED_SECRETS_MAX) openedSecrets.clear();
    openedSecrets.set(cacheKey, secret);
  }
  return secret;
}

/**
 * The `webhooks` queue's "deliver" job: each of its deliveries attempted at once (an event's
 * first attempts, one per endpoint, or a single retry). Every attempt settles before the job
 * does: a job failed early while others still ran would be retried beside them.
 */
export async function attemptDeliveries(job: WebhookAttemptPayload, clock: Clock = systemClock): Promise<AttemptResult[]> {
  // A job's deliveries are one event's (to each of its endpoints): its body is built once.
  const bodies = new Map<string, string>();
  const settled = await Promise.allSettled(job.deliveryIds.map((deliveryId) => attemptDelivery({ deliveryId, attempt: job.attempt }, clock, bodies)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<AttemptResult>).value);
}

/** One attempt of one delivery; `bodies` holds the bodies of the job's events, each built once. */
export async function attemptDelivery(job: { deliveryId: string; attempt: number }, clock: Clock, bodies: Map<string, string>): Promise<AttemptResult> {
  const loaded = await loadAttempt(job.deliveryId);
  if (!loaded) return "gone"; // pruned, or its endpoint deleted
  const row = {
    ...loaded,
    endpoint: { id: loaded.endpointId, url: loaded.url, enabled: loaded.enabled, secretCiphertext: loaded.secretCiphertext },
    eventRecord: {
      id: loaded.eventId,
      type: loaded.eventType,
      createdAt: loaded.eventCreatedAt,
      test: loaded.eventTest,
      // jsonb arrives parsed; a driver that hands back text is parsed here.
      data: (typeof loaded.eventData === "string" ? JSON.parse(loaded.eventData) : loaded.eventData) as Prisma.JsonValue,
    },
    shop: { domain: loaded.shopDomain, installState: loaded.installState },
  };
  if (row.status === "delivered" || row.status === "exhausted") return "settled";
  if (row.attempts + 1 !== job.attempt) return "stale"; // this attempt was made already

  let startedAt = clock.now();
  let result: SendResult;
  let counts = !row.manual;
  if (!row.endpoint.enabled && !row.manual) {
    // Disabled (by the ladder, the merchant or an uninstall) while this delivery waited: it is
    // settled without a request and never replayed.
    result = { delivered: false, code: null, error: "not attempted: the endpoint is disabled", gone: true };
    counts = false;
  } else if (row.shop.installState !== "INSTALLED") {
    result = { delivered: false, code: null, error: "not attempted: the app is uninstalled", gone: true };
    counts = false;
  } else {
    let body = bodies.get(row.eventRecord.id);
    if (body === undefined) bodies.set(row.eventRecord.id, (body = deliveryBody(row.eventRecord, row.shop.domain)));
    const secret = endpointSecret(row.endpoint.id, row.endpoint.secretCiphertext);
    result = await sendSlot(() => {
      // The attempt starts, and is signed, when its request can go out.
      startedAt = clock.now();
      return send(
        row.endpoint.url,
        {
          "content-type": "application/json; charset=utf-8",
          "user-agent": USER_AGENT,
          "x-service-signature": signatureHeader(secret, Math.floor(startedAt.getTime() / 1000), body),
          "x-service-event-id": row.eventRecord.id,
          "x-service-event-type": row.eventRecord.type,
          "x-service-shop-domain": row.shop.domain,
          "x-service-api-version": "v1",
        },
        body,
      );
    });
  }
  const finishedAt = clock.now();
  const ladderLeft = !row.manual && job.attempt < RETRY_LADDER_MS.length;
  const status = result.delivered ? "delivered" : result.gone || !ladderLeft ? "exhausted" : "failed";
  const nextAttemptAt = status === "failed" ? new Date(finishedAt.getTime() + RETRY_LADDER_MS[job.attempt]) : null;
  const error = result.delivered ? null : result.error;

  const recorded =
    status === "exhausted" && counts
      ? await recordExhausted(row.id, row.createdAt, row.endpointId, job.attempt, row.manual, startedAt, finishedAt, result.code, error, row.shop.domain)
      : await records.add({
          deliveryId: row.id,
          attempt: job.attempt,
          manual: row.manual,
          status,
          startedAt,
          finishedAt,
          code: result.code,
          error,
          nextAttemptAt,
        });
  if (!recorded) return "stale";
  if (nextAttemptAt) {
    try {
      await enqueueAttempts([{ deliveryId: row.id, attempt: job.attempt + 1, delayMs: nextAttemptAt.getTime() - clock.now().getTime() }]);
    } catch (err) {
      log.warn("next webhook attempt not queued; the sweeper will queue it", { err, deliveryId: row.id });
    }
  }
  return status;
}

interface AttemptOutcome {
  deliveryId: string;
  attempt: number;
  manual: boolean;
  status: "delivered" | "failed" | "exhausted";
  startedAt: Date;
  finishedAt: Date;
  code: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

/**
 * The common outcomes in ONE statement for a whole batch of attempts: move each delivery (only
 * from the attempt it expects), log the attempt, and reset the exhausted count of every endpoint
 * that had a success. Answers, per outcome, false when another copy of the job already recorded
 * that attempt. Two copies of one delivery's job never share a batch (the batcher's key), and the
 * endpoints are locked in id order, so two batches cannot deadlock on them.
 */
async function recordAttempts(items: AttemptOutcome[]): Promise<boolean[]> {
  // Times go as text[] and are cast per row; hotQuery sends the Dates in them as UTC (utcParam).
  const rows = await hotQuery<{ id: string }>(
    Prisma.sql`
    WITH input AS (
      SELECT * FROM unnest(${items.map((i) => i.deliveryId)}::text[], ${items.map((i) => i.attempt)}::int[], ${items.map((i) => i.status)}::text[],
                           ${items.map((i) => i.code)}::int[], ${items.map((i) => i.error)}::text[], ${items.map((i) => i.nextAttemptAt)}::text[],
                           ${items.map((i) => i.startedAt)}::text[], ${items.map((i) => i.finishedAt)}::text[],
                           ${items.map((i) => i.manual)}::boolean[], ${items.map(() => randomUUID())}::text[])
        AS i(id, attempt, status, code, error, next_at, started, finished, manual, attempt_id)
    ), moved AS (
      UPDATE webhook_deliveries d
         SET attempts = i.attempt, status = i.status::"DeliveryStatus", response_code = i.code, last_error = i.error,
             next_attempt_at = i.next_at::timestamp(3),
             delivered_at = CASE WHEN i.status = 'delivered' THEN i.finished::timestamp(3) ELSE d.delivered_at END
        FROM input i
       WHERE d.id = i.id AND d.attempts = i.attempt - 1 AND d.status IN ('pending', 'failed')
      RETURNING d.id, d.created_at, d.endpoint_id, i.attempt, i.status, i.code, i.error, i.started, i.finished, i.manual, i.attempt_id
    ), logged AS (
      INSERT INTO webhook_attempts (id, delivery_id, delivery_created_at, number, manual, started_at, finished_at, response_code, error, outcome)
      SELECT attempt_id, id, created_at, attempt, manual, started::timestamp(3), finished::timestamp(3), code, error, status::"DeliveryStatus" FROM moved
      RETURNING 1
    ), reset AS (
      UPDATE webhook_endpoints e SET consecutive_exhausted = 0
        FROM (SELECT id FROM webhook_endpoints
               WHERE id IN (SELECT endpoint_id FROM moved WHERE status = 'delivered') AND consecutive_exhausted > 0
               ORDER BY id FOR UPDATE) locked
       WHERE e.id = locked.id
      RETURNING 1
    )
    SELECT id FROM moved`,
    { name: "webhook-attempt-record" },
  );
  const moved = new Set(rows.map((r) => r.id));
  return items.map((i) => moved.has(i.deliveryId));
}

const records = new Batcher<AttemptOutcome, boolean>(recordAttempts, { maxBatch: 256, maxInFlight: 1, key: (i) => i.deliveryId });

/** An automatic delivery exhausted: counted towards disabling its endpoint (at ten, disabled). */
async function recordExhausted(
  deliveryId: string,
  deliveryCreatedAt: Date,
  endpointId: string,
  attempt: number,
  manual: boolean,
  startedAt: Date,
  finishedAt: Date,
  code: number | null,
  error: string | null,
  shopDomain: string,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const moved = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, createdAt: deliveryCreatedAt, attempts: attempt - 1, status: { in: ["pending", "failed"] } },
      data: { attempts: attempt, status: "exhausted", responseCode: code, lastError: error, nextAttemptAt: null },
    });
    if (moved.count === 0) return false;
    await tx.webhookAttempt.create({
      data: { deliveryId, deliveryCreatedAt, number: attempt, manual, startedAt, finishedAt, responseCode: code, error, outcome: "exhausted" },
    });
    const ep = await tx.webhookEndpoint.update({
      where: { id: endpointId },
      data: { consecutiveExhausted: { increment: 1 } },
      select: { consecutiveExhausted: true, enabled: true },
    });
    if (ep.enabled && ep.consecutiveExhausted >= DISABLE_AFTER_EXHAUSTED) {
      await tx.webhookEndpoint.update({ where: { id: endpointId }, data: { enabled: false, disabledReason: "exhausted", disabledAt: finishedAt } });
      log.warn("webhook endpoint disabled after consecutive exhausted deliveries", { endpointId, shop: shopDomain });
    }
    return true;
  });
}
