// Admin API subscription writes (/docs#tag/Admin-API:-Subscription-writes; docs/decisions/023): scope write:subscriptions only
// (it implies no read), Idempotency-Key required (the kernel checks it and runs the idempotency
// hook), 200 with the write receipt. Bodies are parsed here by zod (400 invalid_request naming
// the field); the domain receives typed options. The domain proves ownership and validates the
// target before it calls beforeMutation(), the idempotency claim, so validation failures never
// spend the key.
import { z } from "zod";
import { contractGid, lineGid } from "../../http/ids";
import { defineRoute, type RouteContext } from "../../http/route";
import { beforeMutation, settleClaimsOf } from "../../http/idempotency.server";
import {
  cancelSubscription,
  pauseSubscription,
  rescheduleSubscription,
  resumeSubscription,
  skipSubscription,
  settleSubscriptionWrite,
  updateSubscriptionLine,
  type WriteContext,
  type WriteIntent,
} from "../../domain/subscriptions/writes.server";
import { gid, isoTimestamp } from "../fields";
import { Receipt } from "./schemas";
import { receiptJson } from "./wire";

// A retry that finds an interrupted claim settles it from the platform and answers this receipt
// (app/http/idempotency.server.ts; docs/decisions/035-idempotency-leases.md).
settleClaimsOf("subscription_write", async (shopId, intent: WriteIntent) => {
  const receipt = await settleSubscriptionWrite(shopId, intent);
  return receipt && receiptJson(receipt);
});

const contractParams = z.object({ contract_gid: contractGid });
const noQuery = z.object({}).strict();
const TAGS = ["Subscription writes"];

const writeContext = (ctx: Pick<RouteContext<{ contract_gid: string }>, "shop" | "params">): WriteContext => ({
  shopId: ctx.shop.id,
  shopDomain: ctx.shop.domain,
  contractGid: ctx.params.contract_gid,
  beforeMutation,
});

export const adminWriteRoutes = [
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_gid/pause",
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    response: Receipt,
    summary: "Pause a subscription (already paused: succeeds, previous_status PAUSED)",
    tags: TAGS,
    requiresIdempotencyKey: true,
    handler: async (ctx) => ({ body: receiptJson(await pauseSubscription(writeContext(ctx))) }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_gid/resume",
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    response: Receipt,
    summary: "Resume a paused or failed subscription",
    tags: TAGS,
    requiresIdempotencyKey: true,
    handler: async (ctx) => ({ body: receiptJson(await resumeSubscription(writeContext(ctx))) }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_gid/cancel",
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    response: Receipt,
    summary: "Cancel a subscription (terminal)",
    tags: TAGS,
    requiresIdempotencyKey: true,
    handler: async (ctx) => ({ body: receiptJson(await cancelSubscription(writeContext(ctx))) }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_gid/skip",
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    response: Receipt,
    summary: "Move the next charge one billing interval later (the next anchor on an anchored plan)",
    tags: TAGS,
    requiresIdempotencyKey: true,
    handler: async (ctx) => ({ body: receiptJson(await skipSubscription(writeContext(ctx))) }),
  }),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_gid/reschedule",
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    body: z.strictObject({
      next_billing_at: isoTimestamp().describe("ISO 8601 timestamp, in the future and within five years"),
    }),
    response: Receipt,
    summary: "Set the next charge date (the first anchor on or after it on an anchored plan)",
    tags: TAGS,
    requiresIdempotencyKey: true,
    handler: async (ctx) => ({ body: receiptJson(await rescheduleSubscription({ ...writeContext(ctx), nextBillingAt: ctx.body.next_billing_at })) }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/subscriptions/:contract_gid/lines/:line_gid",
    scopes: ["write:subscriptions"],
    params: z.object({ contract_gid: contractGid, line_gid: lineGid }),
    query: noQuery,
    body: z
      .strictObject({
        quantity: z.number().int().min(1).max(100_000).nullish().describe("New quantity (integer >= 1)"),
        variant_id: gid("ProductVariant").nullish().describe("A variant the line's selling plan group offers"),
      })
      .refine((b) => b.quantity != null || b.variant_id != null, { message: "nothing to change: send quantity and/or variant_id" })
      .meta({ example: { quantity: 2 } }),
    response: Receipt,
    summary: "Edit one line through the platform's draft flow (the line keeps its selling plan)",
    tags: TAGS,
    requiresIdempotencyKey: true,
    handler: async (ctx) => ({
      body: receiptJson(
        await updateSubscriptionLine({
          ...writeContext(ctx),
          lineGid: ctx.params.line_gid,
          change: { quantity: ctx.body.quantity ?? undefined, variantId: ctx.body.variant_id ?? undefined },
        }),
      ),
    }),
  }),
];
