// Test data for the Admin API tests: shops, keys, plans, contracts and the other read models,
// inserted through Prisma; plus the Admin surface (real kernel, real route tables, real
// idempotency hook) and a request helper. Every shop has a unique domain.
import { randomUUID } from "node:crypto";
import { prisma } from "../../app/db.server";
import { mintKey, PUBLISHED_SCOPES } from "../../app/domain/keys/keys.server";
import { createSurface } from "../../app/http/kernel.server";
import { idempotencyHook } from "../../app/http/idempotency.server";
import { ADMIN_SURFACE } from "../../app/surfaces/config";
import { adminReadRoutes } from "../../app/surfaces/admin/reads";
import { adminWriteRoutes } from "../../app/surfaces/admin/writes";

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomUUID().slice(0, 6)}`;
let gidSeq = Math.floor(Math.random() * 1e9);
export const gid = (type: string) => `gid://shopify/${type}/${++gidSeq}`;

export const ALL_READ_SCOPES = PUBLISHED_SCOPES.filter((s) => s.startsWith("read:"));

export async function createAdminShop(opts: { domain?: string; accessToken?: string } = {}) {
  const domain = opts.domain ?? `adm-${uniq()}.myshopify.com`;
  const shop = await prisma.shop.create({ data: { domain, appPlan: "PRO" } });
  await prisma.session.create({
    data: { id: `offline_${domain}`, shop: domain, state: "", isOnline: false, accessToken: opts.accessToken ?? "shpat_test" },
  });
  return shop;
}

export async function secretKey(shopId: string, scopes: string[]): Promise<string> {
  return (await mintKey({ shopId, name: "admin test", scopes, kind: "SECRET" })).key;
}

// The rate-limit clock jumps ten minutes per request, so the bucket is always full in tests.
let clock = Date.now();
export const adminSurface = createSurface(ADMIN_SURFACE, [...adminReadRoutes, ...adminWriteRoutes], {
  idempotency: idempotencyHook,
  now: () => (clock += 600_000),
});

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function api(
  key: string,
  method: string,
  path: string,
  opts: { body?: unknown; rawBody?: string; idempotencyKey?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, ...(opts.headers ?? {}) };
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && opts.idempotencyKey !== null) headers["Idempotency-Key"] = opts.idempotencyKey ?? `k-${uniq()}`;
  const res = await adminSurface.handle(new Request(`http://127.0.0.1${ADMIN_SURFACE.basePath}${path}`, { method, headers, body }));
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const enc = encodeURIComponent;

export async function createPlanGroup(
  shopId: string,
  over: Partial<Parameters<typeof prisma.sellingPlanGroup.create>[0]["data"]> & { sellingPlanGids?: string[] } = {},
) {
  const { sellingPlanGids, ...data } = over;
  return prisma.sellingPlanGroup.create({
    data: {
      shopId,
      groupGid: gid("SellingPlanGroup"),
      name: "Monthly coffee",
      cadenceLabel: "Every month",
      interval: "MONTH",
      intervalCount: 1,
      billingLabel: "Billed monthly",
      discountLabel: "10% off",
      ...(data as object),
      sellingPlans: { create: (sellingPlanGids ?? [gid("SellingPlan")]).map((g, i) => ({ sellingPlanGid: g, name: `Plan ${i}`, position: i })) },
    } as Parameters<typeof prisma.sellingPlanGroup.create>[0]["data"],
    include: { sellingPlans: true },
  });
}

export interface ContractSeed {
  contractGid?: string;
  status?: "ACTIVE" | "PAUSED" | "CANCELLED" | "EXPIRED" | "FAILED" | "STALE";
  createdByService?: boolean;
  customerGid?: string;
  sellingPlanGroupGid?: string | null;
  sellingPlanGid?: string | null;
  monthlyAmountCents?: number | null;
  chargeAmountCents?: number | null;
  currencyCode?: string;
  createdAt?: Date;
  updatedAt?: Date;
  /** When it ended; default for an ended status (CANCELLED, EXPIRED, FAILED): updatedAt, else null. */
  endedAt?: Date | null;
  nextBillingAt?: Date | null;
  billingInterval?: string | null;
  billingIntervalCount?: number | null;
  productTitle?: string | null;
  frequencyLabel?: string | null;
  orderName?: string | null;
}

export function contractData(shopId: string, s: ContractSeed = {}, i = 0) {
  const createdAt = s.createdAt ?? new Date(Date.now() - (i + 1) * 60_000);
  return {
    shopId,
    contractGid: s.contractGid ?? gid("SubscriptionContract"),
    status: s.status ?? "ACTIVE",
    createdByService: s.createdByService ?? true,
    customerGid: s.customerGid ?? gid("Customer"),
    sellingPlanGroupGid: s.sellingPlanGroupGid ?? null,
    sellingPlanGid: s.sellingPlanGid ?? null,
    monthlyAmountCents: s.monthlyAmountCents === undefined ? 2000 : s.monthlyAmountCents,
    chargeAmountCents: s.chargeAmountCents === undefined ? 2000 : s.chargeAmountCents,
    currencyCode: s.currencyCode ?? "USD",
    billingInterval: s.billingInterval === undefined ? "MONTH" : s.billingInterval,
    billingIntervalCount: s.billingIntervalCount === undefined ? 1 : s.billingIntervalCount,
    nextBillingAt: s.nextBillingAt === undefined ? new Date(Date.now() + 10 * 86_400_000) : s.nextBillingAt,
    productTitle: s.productTitle === undefined ? "Coffee beans" : s.productTitle,
    frequencyLabel: s.frequencyLabel ?? null,
    orderName: s.orderName ?? null,
    createdAt,
    updatedAt: s.updatedAt ?? createdAt,
    // As the mirror keeps it (docs/decisions/041): an ended contract has an end time.
    endedAt: s.endedAt !== undefined ? s.endedAt : ["CANCELLED", "EXPIRED", "FAILED"].includes(s.status ?? "ACTIVE") ? (s.updatedAt ?? createdAt) : null,
  } as const;
}

export async function insertContracts(shopId: string, n: number, seed: (i: number) => ContractSeed = () => ({})) {
  const rows = Array.from({ length: n }, (_, i) => contractData(shopId, seed(i), i));
  for (let i = 0; i < rows.length; i += 1000) await prisma.contract.createMany({ data: rows.slice(i, i + 1000) });
  return rows;
}

export async function insertContract(
  shopId: string,
  s: ContractSeed = {},
  lines: Array<{ lineGid?: string; variantGid?: string; quantity?: number; priceCents?: number; sellingPlanGid?: string | null }> = [],
) {
  return prisma.contract.create({
    data: {
      ...contractData(shopId, s),
      lines: {
        create: lines.map((l, position) => ({
          lineGid: l.lineGid ?? gid("SubscriptionLine"),
          variantGid: l.variantGid ?? gid("ProductVariant"),
          productGid: gid("Product"),
          title: "Coffee beans",
          quantity: l.quantity ?? 1,
          priceCents: l.priceCents ?? 1800,
          sellingPlanGid: l.sellingPlanGid ?? null,
          position,
        })),
      },
    },
    include: { lines: true },
  });
}
