// The Export Center's streamed download (app/embedded/export-center.server.ts), below the admin
// session: the same bytes as a job's file for the same rows (the golden files), the total for
// the progress bar, the plan gate and the filter rules of POST /exports.
import { prisma } from "../../../app/db.server";
import { exportCenterDownload } from "../../../app/embedded/export-center.server";
import { golden, insertGoldenContracts } from "../../support/exports";
import { createShop } from "../../support/fixtures";

const NOW = new Date("2026-06-10T08:00:00Z");

describe("Export Center download", () => {
  it("streams the golden bytes in both formats, with the headers of a download and the row total", async () => {
    const shop = await createShop();
    await insertGoldenContracts(shop.id);
    for (const [format, file, type] of [
      ["csv", "subscriptions.golden.csv", "text/csv; charset=utf-8"],
      ["jsonl", "subscriptions.golden.jsonl", "application/x-ndjson; charset=utf-8"],
    ] as const) {
      const res = await exportCenterDownload(shop.domain, new URLSearchParams({ dataset: "subscriptions", format }), NOW);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="subscriptions-2026-06-10.${format}"`);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("x-export-row-count")).toBe("4");
      expect(Buffer.from(await res.arrayBuffer()).equals(golden(file))).toBe(true);
    }
  });

  it("applies the subscriptions filters, and counts only the rows they keep", async () => {
    const shop = await createShop();
    await insertGoldenContracts(shop.id);
    const res = await exportCenterDownload(shop.domain, new URLSearchParams({ dataset: "subscriptions", format: "jsonl", status: "PAUSED" }), NOW);
    expect(res.headers.get("x-export-row-count")).toBe("1");
    const lines = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.contract_id, l.status])).toEqual([["gid://shopify/SubscriptionContract/9002", "PAUSED"]]);
  });

  it("refuses an unknown filter, and filters on a dataset that takes none, with 400 invalid_request naming them", async () => {
    const shop = await createShop();
    const unknown = await exportCenterDownload(shop.domain, new URLSearchParams({ dataset: "subscriptions", colour: "red" }), NOW);
    expect(unknown.status).toBe(400);
    const body = await unknown.json();
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain("colour");
    const plans = await exportCenterDownload(shop.domain, new URLSearchParams({ dataset: "plans", status: "ACTIVE" }), NOW);
    expect(plans.status).toBe(400);
    expect((await plans.json()).error.code).toBe("invalid_request");
  });

  it("a shop below Pro gets plan_upgrade_required, not a file", async () => {
    const shop = await createShop();
    await insertGoldenContracts(shop.id);
    await prisma.shop.update({ where: { id: shop.id }, data: { appPlan: "FREE" } });
    const res = await exportCenterDownload(shop.domain, new URLSearchParams({ dataset: "subscriptions" }), NOW);
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("plan_upgrade_required");
  });
});
