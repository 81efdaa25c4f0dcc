// Test helpers for export jobs over real HTTP: a Pro shop with a key, JSON calls to the Admin
// API of the in-process web server, polling a job to a final state, fetching a download.
import { readFileSync } from "node:fs";
import path from "node:path";
import { prisma } from "../../app/db.server";
import type { HttpMethod } from "../../app/http/route";
import type { adminRoutes } from "../../app/surfaces/admin/routes";
import type { AnswerFor, RoutePath } from "./typed-answers";

import { createContracts, createKey, type ContractSeed } from "./fixtures";
import { eventually, type Stack } from "./stack";

export const GOLDEN_DIR = path.resolve("tests/fixtures/exports");
export const golden = (name: string) => readFileSync(path.join(GOLDEN_DIR, name));

type AdminRoute = (typeof adminRoutes)[number];

/** JSON calls to the Admin API over real HTTP; answers typed from the route's response schema (typed-answers.ts). */
export function adminClient(appUrl: string, key: string) {
  return async function call<M extends HttpMethod, P extends `/${string}`>(
    method: M,
    p: RoutePath<AdminRoute, M, P>,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<AnswerFor<AdminRoute, M, P>> {
    const res = await fetch(`${appUrl}/api/admin/v1${p}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : null;
    return { status: res.status, headers: res.headers, text, json, error: res.status >= 400 ? (json?.error ?? null) : null } as AnswerFor<AdminRoute, M, P>;
  };
}

export type Client = ReturnType<typeof adminClient>;

/** A client of the stack's Admin API holding a fresh secret key of the shop with these scopes. */
export async function exportsClient(stack: Stack, shopId: string, scopes: string[] = ["read:subscriptions"]): Promise<Client> {
  return adminClient(stack.appUrl, (await createKey({ shopId, name: "exports test", scopes })).key);
}

/** A shop installed on the stack (Pro unless told), a key with the scopes and a client holding it. */
export async function exportsShop(stack: Stack, scopes: string[] = ["read:subscriptions"], plan: "PRO" | "FREE" = "PRO") {
  const { domain, shopId } = await stack.installShop(plan);
  const key = (await createKey({ shopId, name: "exports test", scopes })).key;
  return { domain, shopId, key, call: adminClient(stack.appUrl, key) };
}

/** Polls GET /exports/{id} until the job is ready, failed or expired. */
export async function finished(call: Client, id: string, timeoutMs = 90_000) {
  return eventually(async () => {
    const r = await call("GET", `/exports/${id}`);
    return ["ready", "failed", "expired"].includes(r.json?.status) ? r.json : null;
  }, timeoutMs);
}

/** The four contracts of the golden files (tests/fixtures/exports), plus one another app created. */
export async function insertGoldenContracts(shopId: string) {
  const seeds: ContractSeed[] = [
    {
      contractGid: "gid://shopify/SubscriptionContract/9001",
      status: "ACTIVE",
      nextBillingAt: new Date("2026-07-01T00:00:00Z"),
      sellingPlanGroupGid: "gid://shopify/SellingPlanGroup/11",
      sellingPlanGid: "gid://shopify/SellingPlan/21",
      customerGid: "gid://shopify/Customer/31",
      productTitle: 'Café "Crème" Beans',
      frequencyLabel: "Every month",
      billingInterval: "MONTH",
      billingIntervalCount: 1,
      currencyCode: "USD",
      chargeAmountCents: 1999,
      monthlyAmountCents: 1999,
      orderName: "#1001",
      createdAt: new Date("2026-06-01T10:00:00Z"),
      updatedAt: new Date("2026-06-02T10:00:00Z"),
    },
    {
      contractGid: "gid://shopify/SubscriptionContract/9002",
      status: "PAUSED",
      nextBillingAt: null,
      customerGid: "gid://shopify/Customer/32",
      productTitle: "Line one\nLine two, with comma",
      frequencyLabel: "Every 2 weeks",
      billingInterval: "WEEK",
      billingIntervalCount: 2,
      currencyCode: "JPY",
      chargeAmountCents: 1500,
      monthlyAmountCents: null,
      createdAt: new Date("2026-05-01T00:00:00Z"),
    },
    {
      contractGid: "gid://shopify/SubscriptionContract/9003",
      status: "CANCELLED",
      nextBillingAt: new Date("2026-08-15T12:30:00Z"),
      sellingPlanGroupGid: "gid://shopify/SellingPlanGroup/12",
      sellingPlanGid: "gid://shopify/SellingPlan/22",
      customerGid: "gid://shopify/Customer/33",
      productTitle: '=HYPERLINK("http://x")',
      frequencyLabel: "@daily",
      billingInterval: "MONTH",
      billingIntervalCount: 3,
      currencyCode: "KWD",
      chargeAmountCents: 5001,
      monthlyAmountCents: 2500,
      orderName: "-5",
      createdAt: new Date("2026-04-01T00:00:00Z"),
    },
    {
      contractGid: "gid://shopify/SubscriptionContract/9004",
      status: "EXPIRED",
      nextBillingAt: null,
      customerGid: "gid://shopify/Customer/34",
      productTitle: "Tea \u{1F375} \u2014 \u65e5\u672c",
      frequencyLabel: null,
      billingInterval: null,
      billingIntervalCount: null,
      currencyCode: "EUR",
      chargeAmountCents: 0,
      monthlyAmountCents: 0,
      orderName: "#1004",
      createdAt: new Date("2026-03-01T00:00:00Z"),
    },
    { contractGid: "gid://shopify/SubscriptionContract/9005", createdByService: false, createdAt: new Date("2026-06-05T00:00:00Z") },
  ];
  return createContracts(shopId, seeds.length, (i) => seeds[i]);
}

export async function proShop(domain: string) {
  return prisma.shop.findUniqueOrThrow({ where: { domain } });
}
