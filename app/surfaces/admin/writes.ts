// Admin API subscription writes (spec 1, "Subscription writes"): scope write:subscriptions only
// (it implies no read), Idempotency-Key required (the kernel checks it and runs the idempotency
// hook), 200 with the write receipt. The domain proves ownership and validates before it calls
// beforeMutation(), the idempotency claim, so validation failures never spend the key.
import { z } from "zod";
import { contractGid, lineGid } from "../../http/ids";
import { defineRoute, type AnyRoute, type RouteContext } from "../../http/route";
import { beforeMutation } from "../../http/idempotency.server";
import {
  cancelSubscription,
  pauseSubscription,
  rescheduleSubscription,
  resumeSubscription,
  skipSubscription,
  updateSubscriptionLine,
  type WriteContext,
  type WriteReceipt,
} from "../../domain/subscription-writes.server";

const contractParams = z.object({ contract_gid: contractGid });
const noQuery = z.object({}).strict();

const Receipt = z.object({
  id: z.string(),
  contract_id: z.string(),
  action: z.enum(["pause", "resume", "cancel", "skip", "reschedule", "update_line"]),
  previous_status: z.string(),
  status: z.string(),
  next_billing_at: z.string().nullable(),
  line: z.unknown().nullable(),
});

type Ctx = RouteContext<{ contract_gid: string; line_gid?: string }, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const writeContext = (ctx: Ctx): WriteContext => ({
  shopId: ctx.shop.id,
  shopDomain: ctx.shop.domain,
  contractGid: ctx.params.contract_gid,
  beforeMutation,
});

const simple = (action: "pause" | "resume" | "cancel" | "skip", summary: string, run: (w: WriteContext) => Promise<WriteReceipt>) =>
  defineRoute({
    method: "POST",
    path: `/subscriptions/:contract_gid/${action}`,
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    summary,
    tags: ["Subscription writes"],
    requiresIdempotencyKey: true,
    responses: Receipt,
    handler: async (ctx) => ({ body: await run(writeContext(ctx as Ctx)) }),
  });

export const adminWriteRoutes: AnyRoute[] = [
  simple("pause", "Pause a subscription (already paused: succeeds, previous_status PAUSED)", pauseSubscription),
  simple("resume", "Resume a paused or failed subscription", resumeSubscription),
  simple("cancel", "Cancel a subscription (terminal)", cancelSubscription),
  simple("skip", "Move the next charge one billing interval later (the next anchor on an anchored plan)", skipSubscription),
  defineRoute({
    method: "POST",
    path: "/subscriptions/:contract_gid/reschedule",
    scopes: ["write:subscriptions"],
    params: contractParams,
    query: noQuery,
    body: z.object({ next_billing_at: z.unknown().describe("ISO 8601 timestamp, in the future and within five years") }),
    summary: "Set the next charge date (the first anchor on or after it on an anchored plan)",
    tags: ["Subscription writes"],
    requiresIdempotencyKey: true,
    responses: Receipt,
    handler: async (ctx) => ({ body: await rescheduleSubscription({ ...writeContext(ctx as Ctx), body: ctx.body }) }),
  }),
  defineRoute({
    method: "PATCH",
    path: "/subscriptions/:contract_gid/lines/:line_gid",
    scopes: ["write:subscriptions"],
    params: z.object({ contract_gid: contractGid, line_gid: lineGid }),
    query: noQuery,
    body: z.unknown().describe("{ quantity?: integer >= 1, variant_id?: gid://shopify/ProductVariant/<number> }, at least one"),
    summary: "Edit one line through the platform's draft flow (the line keeps its selling plan)",
    tags: ["Subscription writes"],
    requiresIdempotencyKey: true,
    responses: Receipt,
    handler: async (ctx) =>
      ({ body: await updateSubscriptionLine({ ...writeContext(ctx as Ctx), lineGid: (ctx.params as { line_gid: string }).line_gid, body: ctx.body }) }),
  }),
];
