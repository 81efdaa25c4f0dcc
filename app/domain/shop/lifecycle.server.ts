// Install, uninstall and GDPR erasure of a shop's data.
import { writeFile } from "node:fs/promises";
import { Prisma } from "@prisma/client";
import { prisma } from "../../db.server";
import type { CustomerRef } from "../../infra/job-payloads";
import { deleteInBatches, type BatchedTable } from "../../infra/batched-delete.server";
import { log } from "../../infra/log.server";
import { exportStorage } from "../exports/storage.server";
import { sealSessionToken } from "../../shopify/session-tokens.server";

type Tx = Prisma.TransactionClient;

/** Called after OAuth/token exchange. Reinstalling never resurrects revoked keys. */
export async function markInstalled(domain: string): Promise<void> {
  await ensureShopRow(domain);
  await prisma.shop.update({ where: { domain }, data: { installState: "INSTALLED", installedAt: new Date(), uninstalledAt: null } });
}

/** Creates the shop's row with its defaults if there is none; an existing row is untouched. Race-safe. */
async function ensureShopRow(domain: string): Promise<void> {
  await prisma.shop.createMany({ data: [{ domain, installState: "INSTALLED" }], skipDuplicates: true });
}

/** Export files go through the export storage (docs/decisions/057-export-jobs.md). */
export async function removeExportFiles(storageKeys: (string | null)[]): Promise<void> {
  const storage = exportStorage();
  await Promise.all(storageKeys.filter((k): k is string => !!k).map((k) => storage.remove(k).catch((err) => log.warn("export file not removed", { err }))));
}

/**
 * app/uninstalled: in ONE transaction the shop is marked uninstalled, every API key revoked,
 * every webhook endpoint disabled (nothing deleted: reinstall + re-enable resumes) and every
 * export deleted; the offline sessions go too. Export files are removed after the commit.
 * `within` lets the caller run it inside its own transaction (webhook dedupe row).
 */
export type UninstallResult = { revokedKeys: number; disabledEndpoints: number; deletedExports: number; storageKeys: (string | null)[] };

export async function uninstallShop(domain: string, within?: Tx): Promise<UninstallResult | null> {
  const run = async (tx: Tx) => {
    const shop = await tx.shop.findUnique({ where: { domain }, select: { id: true } });
    await tx.session.deleteMany({ where: { shop: domain } });
    if (!shop) return null;
    const now = new Date();
    await tx.shop.update({ where: { id: shop.id }, data: { installState: "UNINSTALLED", uninstalledAt: now } });
    const keys = await tx.apiKey.updateMany({ where: { shopId: shop.id, revokedAt: null }, data: { revokedAt: now } });
    const endpoints = await tx.webhookEndpoint.updateMany({
      where: { shopId: shop.id, enabled: true },
      data: { enabled: false, disabledReason: "uninstalled", disabledAt: now },
    });
    const files = await tx.exportJob.findMany({ where: { shopId: shop.id }, select: { storageKey: true } });
    const exports = await tx.exportJob.deleteMany({ where: { shopId: shop.id } });
    return { revokedKeys: keys.count, disabledEndpoints: endpoints.count, deletedExports: exports.count, storageKeys: files.map((f) => f.storageKey) };
  };
  // Files are removed only once the rows are gone for good: with `within`, after the
  // caller's commit (the caller calls removeExportFiles).
  if (within) return run(within);
  const result = await prisma.$transaction(run);
  if (result) await removeExportFiles(result.storageKeys);
  return result;
}

/**
 * A shop's tables that grow with its traffic, each with an index leading on shop_id; children
 * before parents (deliveries before events, cycles before contracts), so no
 * batch cascades into an unbounded number of rows.
 */
const SHOP_TABLES_BY_SIZE: BatchedTable[] = [
  "webhook_deliveries",
  "events",
  "audit_events",
  "idempotency_records",
  "notification_log",
  "billing_cycles", // its attempts go with it (a handful per cycle)
  "contracts",
];

/** shop/redact (48 h after uninstall): every row of the shop, and its files, erased. */
export async function redactShop(domain: string): Promise<boolean> {
  const shop = await prisma.shop.findUnique({ where: { domain }, select: { id: true } });
  const files = shop ? await prisma.exportJob.findMany({ where: { shopId: shop.id }, select: { storageKey: true } }) : [];
  // The big tables first, in bounded batches (each its own short transaction); the shop row's
  // cascade then finds only the small ones. Killed midway, the retried job carries on from what
  // is left (docs/decisions/144-bounded-tables.md).
  if (shop) for (const table of SHOP_TABLES_BY_SIZE) await deleteInBatches(table, Prisma.sql`shop_id = ${shop.id}`);
  await prisma.$transaction(async (tx) => {
    await tx.session.deleteMany({ where: { shop: domain } });
    if (shop) await tx.shop.delete({ where: { id: shop.id } }); // cascades to every shop-owned table
  });
  await removeExportFiles(files.map((f) => f.storageKey));
  await exportStorage().removeFolder(dataRequestFolder(domain));
  return !!shop;
}

/** customers/redact: everything the app holds about one customer of one shop. */
export async function redactCustomer(ref: CustomerRef): Promise<void> {
  const shop = await prisma.shop.findUnique({ where: { domain: ref.domain }, select: { id: true } });
  if (!shop) return;
  const shopId = shop.id;
  const customerGid = ref.customerGid;
  await prisma.$transaction(async (tx) => {
    const contracts = await tx.contract.findMany({ where: { shopId, customerGid }, select: { contractGid: true } });
    const gids = contracts.map((c) => c.contractGid);
    await tx.boxSelection.deleteMany({ where: { shopId, contractGid: { in: gids } } });
    await tx.contract.deleteMany({ where: { shopId, customerGid } });
    await tx.notificationLogEntry.deleteMany({ where: { shopId, customerGid } });
    await tx.notificationPreference.deleteMany({ where: { shopId, customerGid } });
    await tx.cancelReason.deleteMany({ where: { shopId, customerGid } });
    await tx.saveEvent.deleteMany({ where: { shopId, customerGid } });
    await tx.winbackSend.deleteMany({ where: { shopId, customerGid } });
    if (ref.email) {
      const blank = { gifterName: null, gifterEmail: null, message: null };
      await tx.gift.updateMany({ where: { shopId, gifterEmail: ref.email }, data: blank });
      await tx.gift.updateMany({ where: { shopId, recipientEmail: ref.email }, data: { recipientName: null, recipientEmail: null, message: null } });
      // The mail log's rows (with their recipient) went above; a suppressed address is erased too.
      await tx.emailSuppression.deleteMany({ where: { shopId, address: ref.email.trim().toLowerCase() } });
    }
  });
}

/**
 * customers/data_request: what the app stores about the customer, for the merchant to pass on.
 * Written as JSON to the export storage under data-requests/<shop domain>/ (ids and app records
 * only: the app keeps no customer name or address outside gifts).
 */
export async function customerDataReport(ref: CustomerRef & { requestId: string }): Promise<string | null> {
  const shop = await prisma.shop.findUnique({ where: { domain: ref.domain }, select: { id: true } });
  if (!shop) return null;
  const where = { shopId: shop.id, customerGid: ref.customerGid };
  const report = {
    shop_domain: ref.domain,
    customer_id: ref.customerGid,
    generated_at: new Date().toISOString(),
    subscriptions: await prisma.contract.findMany({ where, select: { contractGid: true, status: true, productTitle: true, createdAt: true } }),
    notification_preferences: await prisma.notificationPreference.findMany({ where, select: { values: true, updatedAt: true } }),
    notifications: await prisma.notificationLogEntry.findMany({ where, select: { event: true, status: true, createdAt: true } }),
    cancel_reasons: await prisma.cancelReason.findMany({ where, select: { reason: true, createdAt: true } }),
    gifts: ref.email
      ? await prisma.gift.findMany({
          where: { shopId: shop.id, OR: [{ gifterEmail: ref.email }, { recipientEmail: ref.email }] },
          select: { kind: true, status: true, gifterName: true, recipientName: true, message: true, createdAt: true },
        })
      : [],
  };
  // Through the export storage (a local directory or a bucket, docs/decisions/146-object-storage.md):
  // written to a temporary file, then published whole, so a reader never sees half a report.
  const storage = exportStorage();
  const key = `${dataRequestFolder(ref.domain)}/${ref.requestId.replace(/[^\w-]/g, "_")}.json`;
  const partial = await storage.tempPath(`data-request-${ref.requestId}`);
  await writeFile(
    partial,
    JSON.stringify(report, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2),
  );
  await storage.publish(key, partial);
  return key;
}

/** Where a shop's data-request reports are kept in the export storage. */
export const dataRequestFolder = (domain: string) => `data-requests/${domain}`;

/**
 * Support override of the app plan (CLI `shops plan`, the demo seed, tests): pins the plan
 * whatever Shopify Billing says; `null` clears it and the plan follows Billing again
 * (app/domain/shop/app-plan.server.ts, decision 064). The gate sees it on the next request.
 */
export async function setAppPlan(domain: string, plan: "PRO" | "FREE" | null): Promise<void> {
  const updated = await prisma.$executeRaw`
    UPDATE shops SET plan_override = ${plan}::"AppPlan", app_plan = COALESCE(${plan}::"AppPlan", billing_plan),
                     plan_checked_at = now(), updated_at = now()
     WHERE domain = ${domain}`;
  if (updated === 0) throw new Error(`No shop ${domain}`);
}

export async function shopIdFor(domain: string): Promise<string> {
  const shop = await prisma.shop.findUnique({ where: { domain }, select: { id: true } });
  if (!shop) throw new Error(`No shop ${domain}`);
  return shop.id;
}

/**
 * Records an installation: the offline session (what token exchange stores in production)
 * and the shop row. Used by the demo seed and tests; the embedded app gets here through
 * shopify.server's afterAuth hook instead.
 */
export async function recordInstallation(domain: string, accessToken: string, scope: string): Promise<void> {
  const id = `offline_${domain}`;
  const sealed = sealSessionToken(id, accessToken); // never in clear at rest (decision 038)
  await prisma.session.upsert({
    where: { id },
    create: { id, shop: domain, state: "", isOnline: false, scope, accessToken: sealed },
    update: { accessToken: sealed, scope },
  });
  await markInstalled(domain);
}

/**
 * The shop row behind an admin page. A missing row is created: Remix runs the page's loaders in
 * parallel, and the Shopify library runs the afterAuth hook (markInstalled) for only one of them
 * without making the others wait for it.
 */
export async function shopForAdmin(domain: string) {
  const select = {
    id: true,
    domain: true,
    appPlan: true,
    installState: true,
    partnerDevelopment: true,
    platformPlanPaid: true,
    planCheckedAt: true,
    ianaTimezone: true,
  } as const;
  const shop = await prisma.shop.findUnique({ where: { domain }, select });
  if (shop) return shop;
  await ensureShopRow(domain);
  return prisma.shop.findUniqueOrThrow({ where: { domain }, select });
}

export type AdminShop = Awaited<ReturnType<typeof shopForAdmin>>;

/** What the admin's home page shows about the shop. */
export async function shopOverview(domain: string) {
  const shop = await shopForAdmin(domain);
  const contracts = await prisma.contract.count({ where: { shopId: shop.id, createdByService: true } });
  return { domain: shop.domain, plan: shop.appPlan, installState: shop.installState, contracts };
}
