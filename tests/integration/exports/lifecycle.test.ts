// Every state and transition of the export lifecycle (docs/decisions/057) that is not an HTTP answer: running and
// progress, failure codes (shop_unavailable, enqueue_failed, render_failed), the daily sweep on
// a controllable clock (expired after 24 h with the bytes deleted, stuck jobs released after
// 24 h, records deleted after 7 days), app/uninstalled and shop/redact, and a job Redis forgot.
import { prisma } from "../../../app/db.server";
import { createExport } from "../../../app/domain/exports/jobs.server";
import { renderExport } from "../../../app/domain/exports/render.server";
import { exportStorage } from "../../../app/domain/exports/storage.server";
import { requeueLostExports } from "../../../app/domain/exports/sweep.server";
import { runDailySweep } from "../../../app/domain/housekeeping/daily-sweep.server";
import { redactShop, uninstallShop } from "../../../app/domain/shop/lifecycle.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import { eventually, useStack } from "../../support/stack";
import { insertGoldenContracts } from "../../support/exports";
import { createContracts } from "../../support/fixtures";

// Worker round trips on a loaded machine: generous per-test time (no wall-clock assertions).
vi.setConfig({ testTimeout: 120_000 });

const stack = useStack();

const HOUR = 3600_000;
const job = (id: string) => prisma.exportJob.findUniqueOrThrow({ where: { id } });
const ready = (id: string) => eventually(async () => ((await job(id)).status === "ready" ? job(id) : null), 90_000);
const fileExists = async (key: string | null) => {
  const f = key ? await exportStorage().open(key) : null;
  f?.body.destroy();
  return !!f;
};
const input = (shopId: string) => ({ shopId, dataset: "subscriptions" as const, format: "csv" as const, filters: {}, filterOptions: {} });

describe("export lifecycle", () => {
  it("queued -> running (started_at) -> ready, progress counts rows", async () => {
    const { shopId } = await stack.installShop();
    await createContracts(shopId, 2500);
    const created = await createExport(input(shopId));
    expect(created.status).toBe("queued");
    const done = await ready(created.id);
    expect(done.startedAt).not.toBeNull();
    expect(done.rowCount).toBe(2500);
    expect(done.progressRows).toBe(2500);
    expect(done.activeSlot).toBeNull();
    expect(await fileExists(done.storageKey)).toBe(true);
  });

  it("the sweep expires a ready job 24 h after ready_at, deleting its bytes and keeping the record", async () => {
    const { shopId } = await stack.installShop();
    await insertGoldenContracts(shopId);
    const done = await ready((await createExport(input(shopId))).id);
    const readyAt = done.readyAt!.getTime();
    await runDailySweep(new Date(readyAt + 24 * HOUR - 1000));
    expect((await job(done.id)).status).toBe("ready");
    await runDailySweep(new Date(readyAt + 24 * HOUR));
    const expired = await job(done.id);
    expect(expired.status).toBe("expired");
    expect(expired.storageKey).toBeNull();
    expect(expired.rowCount).toBe(4);
    expect(await fileExists(done.storageKey)).toBe(false);
  });

  it("the sweep releases a job stuck queued for 24 h (slot freed) and deletes records after 7 days with their files", async () => {
    const { shopId } = await stack.installShop();
    const t0 = new Date();
    // Stuck: its queue job never existed (enqueue did nothing).
    const stuck = await createExport(input(shopId), async () => {});
    await runDailySweep(new Date(t0.getTime() + 23 * HOUR));
    expect((await job(stuck.id)).status).toBe("queued");
    await runDailySweep(new Date(t0.getTime() + 24 * HOUR + 60_000));
    const released = await job(stuck.id);
    expect(released).toMatchObject({ status: "failed", activeSlot: null, errorCode: "render_failed" });

    const done = await ready((await createExport(input(shopId))).id);
    await runDailySweep(new Date(done.createdAt.getTime() + 7 * 24 * HOUR - 60_000));
    expect(await prisma.exportJob.count({ where: { shopId } })).toBe(2);
    await runDailySweep(new Date(done.createdAt.getTime() + 7 * 24 * HOUR + 60_000));
    expect(await prisma.exportJob.count({ where: { shopId } })).toBe(0);
    expect(await fileExists(done.storageKey)).toBe(false);
  });

  it("enqueue failure: the job is failed with enqueue_failed and the slot is free", async () => {
    const { shopId } = await stack.installShop();
    const failed = await createExport(input(shopId), async () => {
      throw new Error("Redis is down");
    });
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code: "enqueue_failed", message: expect.any(String) });
    expect((await createExport(input(shopId))).status).toBe("queued");
  });

  it("shop uninstalled between queueing and running: failed with shop_unavailable, no file", async () => {
    const { shopId } = await stack.installShop();
    const queued = await createExport(input(shopId), async () => {});
    await prisma.shop.update({ where: { id: shopId }, data: { installState: "UNINSTALLED" } });
    expect(await renderExport(queued.id, { finalAttempt: false })).toBe("failed");
    expect(await job(queued.id)).toMatchObject({ status: "failed", errorCode: "shop_unavailable", storageKey: null, activeSlot: null });
  });

  it("any other render error is retried, and on the last attempt fails with render_failed", async () => {
    const { shopId } = await stack.installShop();
    const queued = await createExport(input(shopId), async () => {});
    // A dataset the renderer does not know stands for "anything else went wrong".
    await prisma.exportJob.update({ where: { id: queued.id }, data: { dataset: "bogus" } });
    expect(await renderExport(queued.id, { finalAttempt: false })).toBe("failed");
    expect(await job(queued.id)).toMatchObject({ status: "failed", errorCode: "render_failed" });
  });

  it("app/uninstalled and shop/redact delete every export of the shop and its files at once", async () => {
    const a = await stack.installShop();
    await insertGoldenContracts(a.shopId);
    const doneA = await ready((await createExport(input(a.shopId))).id);
    await uninstallShop(a.domain);
    expect(await prisma.exportJob.count({ where: { shopId: a.shopId } })).toBe(0);
    expect(await fileExists(doneA.storageKey)).toBe(false);

    const b = await stack.installShop();
    await insertGoldenContracts(b.shopId);
    const doneB = await ready((await createExport(input(b.shopId))).id);
    await redactShop(b.domain);
    expect(await prisma.exportJob.count({ where: { shopId: b.shopId } })).toBe(0);
    expect(await fileExists(doneB.storageKey)).toBe(false);
  });

  it("a queued job whose BullMQ job Redis lost is enqueued again and renders", async () => {
    const { shopId } = await stack.installShop();
    await insertGoldenContracts(shopId);
    const lost = await createExport(input(shopId), async () => {});
    expect(await queue(QUEUES.exports).getJob(lost.id)).toBeUndefined();
    expect((await requeueLostExports(new Date(Date.now() + 30_000))).requeued).toBe(0); // within the grace period
    expect((await requeueLostExports(new Date(Date.now() + 120_000))).requeued).toBe(1);
    expect((await ready(lost.id)).rowCount).toBe(4);
  });
});
