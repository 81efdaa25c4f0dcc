// What the sender needs of a shop for every message (settings, the DKIM key opened from its seal,
// the shop's template edits), read once per shop and kept for a few seconds in the worker: at
// 100,000 reminders these were three statements and an AES open per message (measured in
// `npm run bench:notifications`, docs/decisions/101). A setting or template saved in the admin
// applies to messages sent after MAIL_SHOP_CACHE_MS at the latest.
import { prisma } from "../../db.server";
import { env } from "../../env.server";
import { messageKind } from "./catalogue";
import { dkimKey, mailSettings, type MailSettings } from "./settings.server";

export interface ShopMailContext {
  settings: MailSettings;
  dkim: Awaited<ReturnType<typeof dkimKey>>;
  templates: Map<string, { subject: string; body: string }>;
}

const cache = new Map<string, { at: number; ctx: Promise<ShopMailContext> }>();

async function load(shopId: string): Promise<ShopMailContext> {
  const [settings, dkim, rows] = await Promise.all([
    mailSettings(shopId),
    dkimKey(shopId),
    prisma.notificationTemplate.findMany({ where: { shopId }, select: { kind: true, subject: true, body: true } }),
  ]);
  return { settings, dkim, templates: new Map(rows.map((r) => [r.kind, { subject: r.subject, body: r.body }])) };
}

export function shopMailContext(shopId: string, now = Date.now()): Promise<ShopMailContext> {
  const hit = cache.get(shopId);
  if (hit && now - hit.at < env().MAIL_SHOP_CACHE_MS) return hit.ctx;
  const ctx = load(shopId);
  ctx.catch(() => cache.delete(shopId));
  if (cache.size > 10_000) cache.clear();
  cache.set(shopId, { at: now, ctx });
  return ctx;
}

export function templateIn(ctx: ShopMailContext, kind: string): { subject: string; body: string } {
  const own = ctx.templates.get(kind);
  if (own) return own;
  const k = messageKind(kind);
  if (!k) throw new Error(`unknown message kind ${kind}`);
  return { subject: k.subject, body: k.body };
}
