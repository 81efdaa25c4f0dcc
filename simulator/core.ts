// The running simulator's shared core: the state, its writer, the webhook dispatcher and the
// operation log. HTTP handlers (admin-graphql.ts, control.ts, oauth.ts, customer-account.ts)
// all go through it so that every change is persisted and announced the same way.
import { emptyState, pushCapped, type OperationRecord, type ShopState, type SimFlowTrigger, type SimState, type SimEvent } from "./state";
import type { StateWriter } from "./persistence";
import type { WebhookDispatcher } from "./webhooks";
import { RateLimiter } from "./rate-limit";
import { BulkOperations } from "./bulk-operations";

export interface SimConfig {
  appUrl: string;
  apiKey: string;
  apiSecret: string;
}

export class SimCore {
  private seq = 0;
  writer: StateWriter | null = null;
  /** The address browsers reach the simulator at (billing confirmation URLs); set once listening. */
  publicUrl = "";
  dispatcher: WebhookDispatcher | null = null;
  /** Set while a request whose webhooks were injected as lost runs (admin-graphql.ts). */
  private losingWebhooks = false;
  /** The Admin API's cost buckets, one per shop and app (rate-limit.ts); in memory, full on start. */
  readonly rateLimits = new RateLimiter();
  /** The app's deployed Flow triggers by handle (simulator/flow.ts), read from the extensions folder at start. */
  flowTriggers = new Map<string, SimFlowTrigger>();
  /** Bulk query operations and their JSONL results (bulk-operations.ts); in memory, like the buckets. */
  readonly bulk = new BulkOperations();

  constructor(
    public state: SimState,
    readonly config: SimConfig,
    /** The clock; tests may replace it. */
    public now: () => Date = () => new Date(),
  ) {
    this.seq = Math.max(0, ...Object.values(state.shops).flatMap((s) => s.operations.map((o) => o.seq)));
  }

  shop(domain: string): ShopState | undefined {
    return this.state.shops[domain];
  }

  changed(): void {
    this.writer?.schedule();
  }

  /** Persists and announces a successful change. `webhooks: false` for quiet bulk seeding. */
  commit(shop: ShopState, events: SimEvent[], webhooks = true): void {
    if (webhooks && !this.losingWebhooks) for (const e of events) if (e.app === "self" && shop.installation) this.dispatcher?.send(shop, e.topic, e.payload);
    this.changed();
  }

  /** Runs `work` (synchronous) with every webhook it would send lost, as if never delivered. */
  withWebhooksLost<T>(work: () => T): T {
    this.losingWebhooks = true;
    try {
      return work();
    } finally {
      this.losingWebhooks = false;
    }
  }

  record(shop: ShopState | undefined, entry: Omit<OperationRecord, "seq" | "at">): void {
    if (!shop) return;
    pushCapped(shop.operations, { seq: ++this.seq, at: this.now().toISOString(), ...entry });
    this.changed();
  }

  reset(): void {
    this.state = emptyState();
    this.rateLimits.reset();
    this.bulk.reset();
    this.changed();
  }
}
