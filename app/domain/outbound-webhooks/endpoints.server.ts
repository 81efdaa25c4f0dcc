// Webhook endpoints of a shop: create (the whsec_ secret returned this once, sealed at rest),
// list, get, update (events, enabled; the URL never changes), delete. Callable from the Admin API
// surface and from the embedded Webhooks page alike (a shop id in, domain views out).
// docs/decisions/053-webhook-url-rules.md, 054-webhook-management.md.
import { randomBytes, randomUUID } from "node:crypto";
import type { Prisma, WebhookEndpoint } from "@prisma/client";
import { prisma } from "../../db.server";
import { ApiError } from "../../infra/errors";
import { seal } from "../../infra/secret-box.server";
import { MAX_ACTIVE_ENDPOINTS, unknownEventsMessage, type EventType } from "./catalogue";
import { secretContext } from "./deliver.server";
import { checkEndpointUrl, UrlRuleError } from "./url-rules.server";
import { audited, diffFields } from "../audit/audit.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";

type Tx = Prisma.TransactionClient;

export interface EndpointView {
  id: string;
  url: string;
  events: EventType[];
  enabled: boolean;
  /** Why it is disabled: "exhausted" (ten consecutive exhausted deliveries), "uninstalled" or "merchant". */
  disabledReason: string | null;
  disabledAt: Date | null;
  consecutiveExhausted: number;
  createdAt: Date;
  updatedAt: Date;
}

const view = (e: WebhookEndpoint): EndpointView => ({
  id: e.id,
  url: e.url,
  events: e.events as EventType[],
  enabled: e.enabled,
  disabledReason: e.enabled ? null : e.disabledReason,
  disabledAt: e.enabled ? null : e.disabledAt,
  consecutiveExhausted: e.consecutiveExhausted,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

function checkEvents(events: string[]): EventType[] {
  if (!events.length) throw new ApiError("invalid_request", "events must name at least one event from GET /webhooks/events");
  const message = unknownEventsMessage(events);
  if (message) throw new ApiError("invalid_request", message);
  return [...new Set(events)] as EventType[];
}

/** Serialises cap checks of one shop (create and re-enable) inside the caller's transaction. */
async function lockShopEndpoints(tx: Tx, shopId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhook-endpoints'), hashtext(${shopId}))`;
}

async function assertBelowCap(tx: Tx, shopId: string): Promise<void> {
  const active = await tx.webhookEndpoint.count({ where: { shopId, enabled: true } });
  if (active >= MAX_ACTIVE_ENDPOINTS) {
    throw new ApiError("invalid_request", `A shop may have at most ${MAX_ACTIVE_ENDPOINTS} active webhook endpoints; disable or delete one first`);
  }
}

const AUDITED_FIELDS = ["url", "events", "enabled", "disabledReason"] as const;

/** Creates an endpoint; the audit row carries url, events and enabled, never the secret (docs/decisions/125-audit-log.md). */
export async function createEndpoint(input: { shopId: string; url: string; events: string[] }): Promise<EndpointView & { secret: string }> {
  const id = randomUUID();
  let events: EventType[] = [];
  // The URL rules resolve names: checked before the transaction opens, refusals still audited.
  const check = async () => {
    events = checkEvents(input.events);
    try {
      await checkEndpointUrl(input.url);
    } catch (err) {
      if (err instanceof UrlRuleError) throw new ApiError("invalid_request", err.message);
      throw err;
    }
  };
  return audited(
    { shopId: input.shopId, action: "webhook_endpoint.create", target: { type: "webhook_endpoint", id } },
    async (tx) => {
      const secret = `whsec_${randomBytes(32).toString("base64url")}`;
      await lockShopEndpoints(tx, input.shopId);
      await assertBelowCap(tx, input.shopId);
      const row = await tx.webhookEndpoint.create({
        data: { id, shopId: input.shopId, url: new URL(input.url).toString(), events, secretCiphertext: seal(secret, secretContext(id)) },
      });
      return { result: { ...view(row), secret }, changes: diffFields(null, row, AUDITED_FIELDS) };
    },
    { check },
  );
}

export async function listEndpoints(shopId: string): Promise<EndpointView[]> {
  const rows = await prisma.webhookEndpoint.findMany({ where: { shopId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(view);
}

/** One keyset page of the shop's endpoints, (created_at desc, id desc) like every list (GET /webhooks/endpoints). */
export async function listEndpointsPage(shopId: string, page: PageRequest): Promise<PageResult<EndpointView>> {
  const rows = await prisma.webhookEndpoint.findMany({ where: { shopId, ...afterWhere(page.after) }, orderBy: KEYSET_ORDER, take: page.limit + 1 });
  return toPage(rows, page.limit, view);
}

async function ownEndpoint(shopId: string, id: string): Promise<WebhookEndpoint> {
  const row = await prisma.webhookEndpoint.findFirst({ where: { id, shopId } });
  if (!row) throw new ApiError("not_found", "No such webhook endpoint on this shop");
  return row;
}

export async function getEndpoint(shopId: string, id: string): Promise<EndpointView> {
  return view(await ownEndpoint(shopId, id));
}

/**
 * events and/or enabled. Re-enabling resets the exhausted count and is held to the cap; events
 * that occurred while disabled are not replayed (none were queued for it).
 */
export async function updateEndpoint(input: { shopId: string; id: string; events?: string[]; enabled?: boolean }): Promise<EndpointView> {
  return audited({ shopId: input.shopId, action: "webhook_endpoint.update", target: { type: "webhook_endpoint", id: input.id } }, async (tx) => {
    const events = input.events === undefined ? undefined : checkEvents(input.events);
    await lockShopEndpoints(tx, input.shopId);
    const current = await tx.webhookEndpoint.findFirst({ where: { id: input.id, shopId: input.shopId } });
    if (!current) throw new ApiError("not_found", "No such webhook endpoint on this shop");
    const data: Prisma.WebhookEndpointUpdateInput = {};
    if (events) data.events = events;
    if (input.enabled === true && !current.enabled) {
      await assertBelowCap(tx, input.shopId);
      Object.assign(data, { enabled: true, disabledReason: null, disabledAt: null, consecutiveExhausted: 0 });
    } else if (input.enabled === false && current.enabled) {
      Object.assign(data, { enabled: false, disabledReason: "merchant", disabledAt: new Date() });
    }
    const row = Object.keys(data).length ? await tx.webhookEndpoint.update({ where: { id: current.id }, data }) : current;
    return { result: view(row), changes: diffFields(current, row, AUDITED_FIELDS) };
  });
}

/** Deletes the endpoint with its delivery log. */
export async function deleteEndpoint(shopId: string, id: string): Promise<{ id: string; deleted: true }> {
  return audited({ shopId, action: "webhook_endpoint.delete", target: { type: "webhook_endpoint", id } }, async (tx) => {
    const current = await tx.webhookEndpoint.findFirst({ where: { id, shopId } });
    if (!current) throw new ApiError("not_found", "No such webhook endpoint on this shop");
    await tx.webhookEndpoint.delete({ where: { id: current.id } });
    return { result: { id, deleted: true as const }, changes: diffFields(current, null, AUDITED_FIELDS) };
  });
}
