// A typed client for the simulator's control API (docs/simulator.md), used by the demo seed and
// the tests. It speaks plain HTTP to the simulator process, like a developer with curl.
import type { Failure } from "./state";
export class SimulatorControl {
  constructor(readonly baseUrl: string) {}

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/_sim${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`simulator ${method} ${path} → ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async reachable(): Promise<boolean> {
    try {
      return (await fetch(`${this.baseUrl}/_sim/health`, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      return false;
    }
  }

  shop = (domain: string) => `/shops/${encodeURIComponent(domain)}`;

  installShop(input: { shop: string; currencyCode?: string; partnerDevelopment?: boolean; plan?: string; name?: string }) {
    return this.call<{ shop: string; accessToken: string; scope: string; counts?: Record<string, number> }>("POST", "/shops", input);
  }
  getShop(domain: string) {
    return this.call<{ shop: string; installed: boolean; counts: Record<string, number> }>("GET", this.shop(domain)).catch(() => null);
  }
  idle() {
    return this.call("POST", "/idle");
  }
  failNext(domain: string, failure: Failure) {
    return this.call("POST", `${this.shop(domain)}/failures`, failure);
  }
  /** The shop's Admin API cost bucket; `plan` moves the shop to that plan's limits, `currentlyAvailable` drains it (null refills). */
  rateLimit(domain: string, change?: { plan?: "standard" | "advanced" | "plus" | "enterprise"; currentlyAvailable?: number | null; paused?: boolean }) {
    type View = { plan: string; maximumAvailable: number; currentlyAvailable: number; restoreRate: number; charged: number; throttled: number };
    return change ? this.call<View>("PUT", `${this.shop(domain)}/rate-limit`, change) : this.call<View>("GET", `${this.shop(domain)}/rate-limit`);
  }
  /** The shop's bulk operations; `hold` keeps them RUNNING until released, `runningMs` sets how long one runs. */
  bulkOperations(domain: string, change?: { hold?: boolean; runningMs?: number }) {
    type View = {
      hold: boolean;
      runningMs: number;
      started: number;
      operations: { id: string; status: string; objectCount: number; rootObjectCount: number }[];
    };
    return change ? this.call<View>("PUT", `${this.shop(domain)}/bulk-operations`, change) : this.call<View>("GET", `${this.shop(domain)}/bulk-operations`);
  }
  operations(domain: string, query: { operation?: string; outcome?: string } = {}) {
    const qs = new URLSearchParams(query as Record<string, string>).toString();
    return this.call<{ operation: string; outcome: string; variables: Record<string, unknown> }[]>(
      "GET",
      `${this.shop(domain)}/operations${qs ? `?${qs}` : ""}`,
    );
  }
  getContract(domain: string, gid: string) {
    return this.call<{ id: string; status: string; nextBillingDate: string; revisionId: number; app: string }>(
      "GET",
      `${this.shop(domain)}/contracts/${encodeURIComponent(gid)}`,
    );
  }
}
