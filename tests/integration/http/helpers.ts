// Shared helpers for the kernel tests (shops and keys come from tests/support/fixtures.ts): test route tables
// run through the real kernel (createSurface) with the real surface configs.
import { z } from "zod";
import { prisma } from "../../../app/db.server";
import type { KeyKind } from "../../../app/domain/keys/keys.server";
import { issueCustomerSession } from "../../../app/domain/customer/session.server";
import { afterWhere, KEYSET_ORDER } from "../../../app/domain/shared/paging.server";
import { keysetPage } from "../../../app/http/cursor.server";
import { createSurface, type KernelOptions, type SurfaceConfig } from "../../../app/http/kernel.server";
import { defineRoute, type AnyRoute } from "../../../app/http/route";
import { ApiError } from "../../../app/infra/errors";
import { ADMIN_SURFACE, CUSTOMER_SURFACE, STOREFRONT_SURFACE } from "../../../app/surfaces/config";
import { createKey, createShop, type ShopOpts } from "../../support/fixtures";

export const SURFACES: SurfaceConfig[] = [ADMIN_SURFACE, STOREFRONT_SURFACE, CUSTOMER_SURFACE];

export const TEST_SCOPE = "read:plans" as const; // offered on both key kinds
/** A scope both key kinds may hold that the test routes do not ask for (a secret key needs one). */
export const OTHER_SCOPE = "read:bundles" as const;

export async function keyFor(shopId: string, kind: KeyKind, scopes: string[] = [TEST_SCOPE]) {
  return createKey({ shopId, name: `test ${kind}`, scopes, kind });
}

export function kindFor(surface: SurfaceConfig): KeyKind {
  return surface.keyKind;
}

/** A test route table exercising every kernel path; identical on every surface. */
export function testRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: "GET",
      path: "/things/:thing_gid",
      scopes: [TEST_SCOPE],
      params: z.object({ thing_gid: z.string() }),
      response: z.object({ thing: z.string(), customer: z.string().nullable() }),
      summary: "echo",
      handler: (ctx) => ({ body: { thing: ctx.params.thing_gid, customer: ctx.customerId ?? null } }),
    }),
    defineRoute({
      method: "POST",
      path: "/things",
      scopes: [TEST_SCOPE],
      body: z.object({ name: z.string().min(1), count: z.number().int().optional() }),
      response: z.object({ name: z.string() }),
      summary: "create",
      handler: (ctx) => ({ status: 201, body: { name: ctx.body.name } }),
    }),
    defineRoute({
      method: "POST",
      path: "/things/:thing_gid/act",
      scopes: [TEST_SCOPE],
      requiresIdempotencyKey: true,
      response: z.object({ ok: z.boolean() }),
      summary: "write",
      handler: () => ({ body: { ok: true } }),
    }),
    defineRoute({
      method: "GET",
      path: "/keys",
      scopes: [TEST_SCOPE],
      query: z.object({ limit: z.string().optional(), cursor: z.string().optional() }),
      response: z.object({ data: z.array(z.string()), next_cursor: z.string().nullable() }),
      summary: "list",
      handler: async (ctx) => ({
        body: await keysetPage(
          ctx.query,
          ({ after, take }) =>
            prisma.apiKey.findMany({
              where: { shopId: ctx.shop.id, ...afterWhere(after) },
              orderBy: KEYSET_ORDER,
              take,
              select: { id: true, createdAt: true },
            }),
          (r) => r.id,
          "keys",
        ),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/boom",
      scopes: [],
      response: z.never(),
      summary: "throws",
      handler: () => {
        throw new Error("injected fault: secret detail");
      },
    }),
    defineRoute({
      method: "GET",
      path: "/conflict",
      scopes: [],
      response: z.never(),
      summary: "throws ApiError",
      handler: () => {
        throw new ApiError("state_conflict", "nope");
      },
    }),
    defineRoute({
      method: "POST",
      path: "/open",
      scopes: [],
      session: false,
      response: z.object({ open: z.boolean() }),
      summary: "no session needed (customer surface)",
      handler: () => ({ body: { open: true } }),
    }),
  ];
}

export function testSurface(config: SurfaceConfig, options: KernelOptions = {}) {
  return createSurface(config, testRoutes(), options);
}

export interface Creds {
  token?: string;
  session?: string;
}

export function req(
  config: SurfaceConfig,
  method: string,
  path: string,
  creds: Creds = {},
  init: { body?: string; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(init.headers);
  if (creds.token) headers.set("Authorization", `Bearer ${creds.token}`);
  if (creds.session) headers.set("X-Service-Session", creds.session);
  return new Request(`http://127.0.0.1${config.basePath}${path}`, { method, headers, body: init.body });
}

/** A shop, a key of the surface's kind with the test scope and, on the Customer API, a session. */
export async function principalFor(config: SurfaceConfig, shopOpts: ShopOpts = {}, scopes: string[] = [TEST_SCOPE]) {
  const shop = await createShop(shopOpts);
  const key = await keyFor(shop.id, config.keyKind, scopes);
  const creds: Creds = { token: key.key };
  if (config.customerSession) creds.session = issueCustomerSession({ shopId: shop.id, customerId: "gid://shopify/Customer/1", keyId: key.id }).token;
  return { shop, key, creds };
}

export async function envelopeOf(res: Response) {
  const body = (await res.json()) as { error: { code: string; message: string; doc_url: string; request_id: string } };
  return body.error;
}

/** The shared command connection, once connected (it has no offline queue). */
export async function readyRedis() {
  const { redis } = await import("../../../app/infra/redis.server");
  const r = redis();
  if (r.status !== "ready") await new Promise<void>((resolve) => r.once("ready", () => resolve()));
  return r;
}
