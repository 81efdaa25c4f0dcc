// Requests to the Customer API over real HTTP, as a storefront would send them. Every answer is
// checked for the headers the surface promises on every response (no-store, a request id).
import type { Stack } from "../../support/stack";
import { customerToken, type CustomerShop } from "../../support/customer-factories";

export const BASE = "/api/customer/v1";
export const enc = encodeURIComponent;
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

export interface CallOptions {
  key?: string | null;
  session?: string | null;
  body?: unknown;
  origin?: string;
  baseUrl?: string;
}

export function client(stack: Stack, s: () => CustomerShop) {
  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    const key = opts.key === undefined ? s().publishableKey : opts.key;
    if (key) headers.Authorization = `Bearer ${key}`;
    if (opts.session) headers["X-Service-Session"] = opts.session;
    if (opts.origin) headers.Origin = opts.origin;
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${opts.baseUrl ?? stack.appUrl}${BASE}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    // Every answer of this surface, success or failure: no-store and a request id.
    expect(res.headers.get("cache-control"), `${method} ${path}`).toBe("no-store");
    expect(res.headers.get("x-service-request-id"), `${method} ${path}`).toMatch(/\S/);
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  }

  /** A session for one of the shop's customers, through the real exchange. */
  async function sessionFor(customerId: string, shop = s()): Promise<string> {
    const token = await customerToken(stack.control, shop.domain, customerId);
    const res = await call("POST", "/session", { key: shop.publishableKey, body: { customer_access_token: token } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.session_token as string;
  }

  return { call, sessionFor };
}

/** The contract as the simulator holds it (the platform's truth). */
export const simContract = (stack: Stack, domain: string, gid: string) =>
  stack.control.call<Json>("GET", `${stack.control.shop(domain)}/contracts/${enc(gid)}`);
