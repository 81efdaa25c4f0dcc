// `npm run cli -- webhooks listen --forward-to http://localhost:4000/hooks` (docs/decisions/126-events-feed-and-listen.md):
// follows the Admin API's events feed (GET /events, scope manage:webhooks) and forwards each new
// event to a local URL, signed like a real delivery with a secret printed at start, so a receiver
// can be built before there is a public HTTPS endpoint (as `stripe listen` does). It speaks HTTP
// only, with the developer's own key: no database, nothing of the server's. A server that goes away
// (a restart, a deploy) is waited for; events published meanwhile are forwarded when it is back.
import { randomBytes } from "node:crypto";
import { signatureHeader } from "../app/domain/outbound-webhooks/signature";

export interface ListenOptions {
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  /** Only these event types (default all). */
  events?: string[];
  intervalMs?: number;
  secret?: string;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

interface FeedPage {
  data: Array<{ id: string; type: string; created_at: string; body: string }>;
  next_cursor: string | null;
}

// Events whose created_at (when they happened) is at most this old when they appear are followed.
const LOOKBACK_MS = 10 * 60_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

async function feed(o: ListenOptions, since: Date): Promise<FeedPage["data"]> {
  const out: FeedPage["data"] = [];
  let cursor: string | null = null;
  do {
    const u = new URL(`${o.baseUrl.replace(/\/$/, "")}/api/admin/v1/events`);
    u.searchParams.set("limit", "250");
    u.searchParams.set("created_after", since.toISOString());
    if (cursor) u.searchParams.set("cursor", cursor);
    const res = await fetch(u, { headers: { Authorization: `Bearer ${o.apiKey}` }, signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    if (!res.ok) {
      const err = new Error(`GET /events answered ${res.status}: ${text.slice(0, 300)}`);
      // A refused key will not start working by waiting.
      if (res.status === 401 || res.status === 403) Object.assign(err, { fatal: true });
      throw err;
    }
    const page = JSON.parse(text) as FeedPage;
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

async function forward(o: ListenOptions, secret: string, e: FeedPage["data"][number]): Promise<string> {
  const shopDomain = (JSON.parse(e.body) as { shop_domain?: string }).shop_domain ?? "";
  try {
    const res = await fetch(o.forwardTo, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "SERVICE-Webhooks/1.0 (listen)",
        "x-service-signature": signatureHeader(secret, Math.floor(Date.now() / 1000), e.body),
        "x-service-event-id": e.id,
        "x-service-event-type": e.type,
        "x-service-shop-domain": shopDomain,
        "x-service-api-version": "v1",
      },
      body: e.body,
    });
    await res.arrayBuffer().catch(() => undefined);
    return `[${res.status}]`;
  } catch (err) {
    return `[failed: ${(err as Error).message}]`;
  }
}

/** Runs until the signal aborts. Answers the signing secret it used. */
export async function listen(o: ListenOptions): Promise<string> {
  const log = o.log ?? ((l: string) => console.log(l));
  const secret = o.secret ?? `whsec_${randomBytes(32).toString("base64url")}`;
  const interval = o.intervalMs ?? 500;
  const seen = new Map<string, number>();
  const started = Date.now();
  log(`Ready! Your webhook signing secret is ${secret}`);
  log(`Forwarding events from ${o.baseUrl} to ${o.forwardTo} (Ctrl-C to stop)`);
  let baselined = false;
  let down = false;
  while (!o.signal?.aborted) {
    const since = new Date(Math.min(started, Date.now()) - LOOKBACK_MS);
    try {
      const events = await feed(o, since);
      if (down) log(`Connected to ${o.baseUrl} again`);
      down = false;
      // What was already there when listening began is history, not news.
      for (const e of events.reverse()) {
        if (seen.has(e.id)) continue;
        seen.set(e.id, Date.parse(e.created_at));
        if (!baselined && Date.parse(e.created_at) < started) continue;
        if (o.events?.length && !o.events.includes(e.type)) continue;
        log(`--> ${e.type} ${e.id} ${await forward(o, secret, e)}`);
      }
      baselined = true;
      for (const [id, at] of seen) if (at < since.getTime() - LOOKBACK_MS) seen.delete(id);
    } catch (err) {
      if ((err as { fatal?: boolean }).fatal) throw err;
      if (!down) log(`Waiting for ${o.baseUrl}: ${(err as Error).message}`);
      down = true;
    }
    await sleep(interval, o.signal);
  }
  return secret;
}
