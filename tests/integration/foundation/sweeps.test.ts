// The daily sweep applies every retention rule, and only to what is old enough.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { runDailySweep } from "../../../app/domain/housekeeping/daily-sweep.server";
import { createShop } from "../../support/fixtures";

const HOUR = 3600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

it("expires, releases and deletes exports, forgets idempotency keys, prunes delivery and webhook logs", async () => {
  const shop = await createShop({ offlineSession: false });
  const shopId = shop.id;
  const exportRow = (data: object) => prisma.exportJob.create({ data: { shopId, dataset: "plans", format: "csv", activeSlot: null, ...data } });
  const readyOld = await exportRow({ status: "ready", readyAt: ago(25), createdAt: ago(26), storageKey: "f.csv" });
  const readyNew = await exportRow({ status: "ready", readyAt: ago(1), createdAt: ago(2), storageKey: "g.csv" });
  const stuck = await exportRow({ status: "running", activeSlot: "active", createdAt: ago(25) });
  const ancient = await exportRow({ status: "failed", createdAt: ago(24 * 8) });
  await prisma.idempotencyRecord.createMany({
    data: [
      { shopId, key: "old", requestHash: "h", createdAt: ago(25) },
      { shopId, key: "new", requestHash: "h", createdAt: ago(23) },
    ],
  });
  const oldHook = randomUUID();
  const newHook = randomUUID();
  await prisma.inboundWebhook.createMany({
    data: [
      { webhookId: oldHook, shopDomain: shop.domain, topic: "app/uninstalled", receivedAt: ago(24 * 8) },
      { webhookId: newHook, shopDomain: shop.domain, topic: "app/uninstalled", receivedAt: ago(24 * 2) },
    ],
  });

  const report = await runDailySweep();
  expect(report.exportsExpired).toBeGreaterThanOrEqual(1);

  const byId = async (id: string) => prisma.exportJob.findUnique({ where: { id } });
  expect(await byId(readyOld.id)).toMatchObject({ status: "expired", storageKey: null });
  expect(await byId(readyNew.id)).toMatchObject({ status: "ready", storageKey: "g.csv" });
  expect(await byId(stuck.id)).toMatchObject({ status: "failed", activeSlot: null, errorCode: "render_failed" });
  expect(await byId(ancient.id)).toBeNull();
  expect((await prisma.idempotencyRecord.findMany({ where: { shopId }, select: { key: true } })).map((r) => r.key)).toEqual(["new"]);
  expect(await prisma.inboundWebhook.findUnique({ where: { webhookId: oldHook } })).toBeNull();
  expect(await prisma.inboundWebhook.findUnique({ where: { webhookId: newHook } })).not.toBeNull();
});
