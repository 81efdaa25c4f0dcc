// Who is acting, and for which request: set once where a request or job enters (the API kernel,
// the embedded admin's adminContext callers, the CLI, a worker) and read by the audit trail
// below the route without threading it through every domain call (docs/decisions/125-audit-log.md).
import { AsyncLocalStorage } from "node:async_hooks";

export type Actor =
  /** An Admin API secret key, by id and the name it was minted with. */
  | { type: "api_key"; id: string; name: string }
  /** A staff member in the embedded admin, by Shopify user id (the session token's `sub`). */
  | { type: "staff"; id: string; name?: string | null }
  /** A customer session (Customer API or hosted portal), by customer gid. */
  | { type: "customer"; id: string }
  /** A job, sweep, inbound webhook or the operator CLI, by its name. */
  | { type: "system"; id: string };

export interface ActorScope {
  actor: Actor;
  requestId: string | null;
}

const store = new AsyncLocalStorage<ActorScope>();

/** Runs fn with this actor (and request id) as the one every audit row below it records. */
export function withActor<T>(actor: Actor, fn: () => T, requestId: string | null = null): T {
  return store.run({ actor, requestId }, fn);
}

/** The current actor; code that runs outside any request or job is "system: unattributed". */
export function currentActor(): ActorScope {
  return store.getStore() ?? { actor: { type: "system", id: "unattributed" }, requestId: null };
}
