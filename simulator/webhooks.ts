// Inbound webhooks to the app, as Shopify sends them: only topics the app subscribes to in
// shopify.app.toml, HMAC-signed with the API secret, delivered after the response to the call
// that caused them, retried a few times when the app does not answer 2xx.
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync, existsSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import { log } from "./log";
import { SHOPIFY_API_VERSION } from "../app/platform/api-version";
import { pushCapped, type ShopState, type WebhookDelivery } from "./state";

/** When shopify.app.toml names none (it does: the same version, checked by a test). */
export const WEBHOOK_API_VERSION_DEFAULT = SHOPIFY_API_VERSION;

export interface WebhookConfig {
  apiVersion: string;
  /** topic → uri (absolute, or relative to the app URL) */
  subscriptions: Map<string, string>;
}

interface TomlWebhooks {
  webhooks?: {
    api_version?: string;
    subscriptions?: { topics?: string[]; compliance_topics?: string[]; uri?: string }[];
  };
}

export function readWebhookConfig(tomlPath: string | undefined): WebhookConfig {
  const config: WebhookConfig = { apiVersion: WEBHOOK_API_VERSION_DEFAULT, subscriptions: new Map() };
  if (!tomlPath || !existsSync(tomlPath)) return config;
  const toml = parseToml(readFileSync(tomlPath, "utf8")) as TomlWebhooks;
  config.apiVersion = toml.webhooks?.api_version ?? config.apiVersion;
  for (const sub of toml.webhooks?.subscriptions ?? []) {
    if (!sub.uri) continue;
    for (const topic of [...(sub.topics ?? []), ...(sub.compliance_topics ?? [])]) config.subscriptions.set(topic, sub.uri);
  }
  return config;
}

export function signWebhook(rawBody: string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

export interface DispatcherOptions {
  appUrl: string;
  apiSecret: string;
  config: WebhookConfig;
  /** Delay before each retry; its length + 1 is the number of attempts. */
  retryDelaysMs?: number[];
  onChange: () => void;
}

export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly opts: DispatcherOptions) {}

  isSubscribed(topic: string): boolean {
    return this.opts.config.subscriptions.has(topic);
  }

  /** Queues one delivery; returns the delivery record, or null when the app does not subscribe. */
  send(shop: ShopState, topic: string, payload: unknown): WebhookDelivery | null {
    const uri = this.opts.config.subscriptions.get(topic);
    if (!uri || this.closed) return null;
    const url = new URL(uri, this.opts.appUrl.endsWith("/") ? this.opts.appUrl : `${this.opts.appUrl}/`).href;
    const delivery: WebhookDelivery = {
      id: randomUUID(),
      topic,
      url,
      attempts: 0,
      status: "pending",
      lastStatus: null,
      at: new Date().toISOString(),
    };
    pushCapped(shop.deliveries, delivery);
    const body = JSON.stringify(payload);
    const headers = {
      "Content-Type": "application/json",
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": shop.domain,
      "X-Shopify-Webhook-Id": delivery.id,
      "X-Shopify-Event-Id": randomUUID(),
      "X-Shopify-API-Version": this.opts.config.apiVersion,
      "X-Shopify-Triggered-At": delivery.at,
      "X-Shopify-Hmac-Sha256": signWebhook(body, this.opts.apiSecret),
    };
    // setImmediate: the caller's HTTP response goes out first, as with Shopify.
    this.later(0, () => this.attempt(delivery, headers, body));
    return delivery;
  }

  private later(ms: number, fn: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const p = fn().finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }, ms);
    this.timers.add(timer);
  }

  private async attempt(delivery: WebhookDelivery, headers: Record<string, string>, body: string): Promise<void> {
    if (this.closed) return;
    delivery.attempts++;
    let status = 0;
    try {
      const res = await fetch(delivery.url, { method: "POST", headers, body, signal: AbortSignal.timeout(5_000) });
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      log.debug("simulator webhook delivery failed", { topic: delivery.topic, err });
    }
    delivery.lastStatus = status || null;
    const delays = this.opts.retryDelaysMs ?? [500, 2_000, 5_000];
    if (status >= 200 && status < 300) delivery.status = "delivered";
    else if (delivery.attempts > delays.length) delivery.status = "failed";
    else this.later(delays[delivery.attempts - 1], () => this.attempt(delivery, headers, body));
    this.opts.onChange();
  }

  /** Resolves when nothing is queued or in flight (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.timers.size > 0) {
      await Promise.all([...this.inFlight]);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
