// What the kernel knows about the request a handler runs for, readable below the route without
// threading it through every call: today the caller's shop, which list cursors are bound to
// (app/http/cursor.server.ts, docs/decisions/012-cursors.md). Set only by the kernel.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestScope {
  shopId: string;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();
