// The events feed (GET /events; docs/decisions/126-events-feed-and-listen.md): every event published
// to the shop in the last 30 days, newest first, each with the exact body its deliveries carry
// (deliveryBody, the bytes the signature covers), so a developer can see, replay and verify what a
// receiver got. Test events sent from the Webhooks page are not in it.
import { prisma } from "../../db.server";
import { KEYSET_ORDER, afterWhere, toPage, type PageRequest, type PageResult } from "../shared/paging.server";
import { deliveryBody } from "./deliver.server";

export const FEED_DAYS = 30;

export interface FeedFilters {
  type?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

export interface FeedEvent {
  id: string;
  type: string;
  createdAt: Date;
  /** The delivery body, byte for byte. */
  body: string;
}

export async function listFeedEvents(input: { shopId: string; filters: FeedFilters; page: PageRequest; now?: Date }): Promise<PageResult<FeedEvent>> {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: input.shopId }, select: { domain: true } });
  const floor = new Date((input.now ?? new Date()).getTime() - FEED_DAYS * 86_400_000);
  const after = input.filters.createdAfter && input.filters.createdAfter > floor ? input.filters.createdAfter : floor;
  const rows = await prisma.event.findMany({
    where: {
      AND: [
        { shopId: input.shopId, test: false, createdAt: { gte: after, ...(input.filters.createdBefore ? { lt: input.filters.createdBefore } : {}) } },
        input.filters.type ? { type: input.filters.type } : {},
        afterWhere(input.page.after),
      ],
    },
    orderBy: KEYSET_ORDER,
    take: input.page.limit + 1,
  });
  return toPage(rows, input.page.limit, (e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, body: deliveryBody(e, shop.domain) }));
}

/** The bodies of the given events (the Webhooks page's delivery log shows what was sent). */
export async function eventBodies(shopId: string, eventIds: string[]): Promise<Map<string, string>> {
  if (!eventIds.length) return new Map();
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { domain: true } });
  const rows = await prisma.event.findMany({ where: { shopId, id: { in: [...new Set(eventIds)] } } });
  return new Map(rows.map((e) => [e.id, deliveryBody(e, shop.domain)]));
}
