// The migration dataset (docs/decisions/056-export-datasets.md): contracts of the mirror with the customer's e-mail,
// name, phone and shipping address read from the platform (the simulator, through the real
// GraphQL adapter) while rendering, in batched nodes(ids:) reads that ride out THROTTLED answers;
// a platform failure on the last attempt fails the job with render_failed.
import { prisma } from "../../../app/db.server";
import { reconcileShop } from "../../../app/domain/subscriptions/reconcile.server";
import { createExport } from "../../../app/domain/exports/jobs.server";
import { renderExport } from "../../../app/domain/exports/render.server";
import { MIGRATION_HEADER } from "../../../app/domain/exports/migration-columns";
import { useStack } from "../../support/stack";
import { exportsClient, finished } from "../../support/exports";

vi.setConfig({ testTimeout: 120_000 });

const stack = useStack();

async function shopWithContracts(count: number) {
  const { domain, shopId } = await stack.installShop();
  await stack.control.call("POST", `${stack.control.shop(domain)}/contracts/bulk`, { count });
  await reconcileShop(domain);
  return { domain, shopId };
}

describe("migration export", () => {
  it("carries each contract line with the customer's e-mail, name, phone and address, read in batches", async () => {
    const { domain, shopId } = await shopWithContracts(130);
    const call = await exportsClient(stack, shopId, ["read:subscriptions", "read:customers"]);
    // Shopify throttles the first customer read: the client waits for the bucket and goes on.
    await stack.control.failNext(domain, { operation: "nodes", throttled: 1 });
    const job = await finished(call, (await call("POST", "/exports", { dataset: "migration", format: "jsonl" })).json.id);
    expect(job.status).toBe("ready");
    const text = await (await fetch(job.download_url!)).text();
    const rows = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const lines = await prisma.contractLine.count({ where: { contract: { shopId } } });
    expect(rows.length).toBe(lines);
    expect(job.row_count).toBe(lines);
    const simContracts = await stack.control.call<Array<{ id: string; customerId: string }>>("GET", `${stack.control.shop(domain)}/contracts`);
    const customerOf = new Map(simContracts.map((c) => [c.id, c.customerId]));
    for (const r of rows) {
      expect(r.customer_id).toBe(customerOf.get(r.contract_id));
      const n = r.customer_id.split("/").pop();
      expect(r.email).toBe(`customer${n}@example.com`);
      expect(r.first_name).toBe("Customer");
      expect(r.last_name).toBe(n);
      expect(r.shipping_address_1).toBe("1 Main Street");
      expect(r.shipping_city).toBe("Ottawa");
      expect(r.shipping_country_code).toBe("CA");
    }
    expect(Object.keys(rows[0])).toEqual(
      MIGRATION_HEADER.map((l) =>
        l
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "_")
          .replace(/^_+|_+$/g, ""),
      ),
    );
    // 130 contracts in pages of 100: two batched customer reads (plus the throttled retry).
    const reads = (await stack.control.operations(domain, { operation: "nodes" })).filter((o) => o.outcome === "ok");
    expect(reads.length).toBe(2);
  });

  it("a platform failure on the last attempt fails the job with render_failed and no file", async () => {
    const { domain, shopId } = await shopWithContracts(3);
    const queued = await createExport({ shopId, dataset: "migration", format: "csv", filters: {}, filterOptions: {} }, async () => {});
    for (let i = 0; i < 5; i++) await stack.control.failNext(domain, { operation: "nodes", status: 503 });
    expect(await renderExport(queued.id, { finalAttempt: true })).toBe("failed");
    const row = await prisma.exportJob.findUniqueOrThrow({ where: { id: queued.id } });
    expect(row).toMatchObject({ status: "failed", errorCode: "render_failed", storageKey: null, activeSlot: null });
    expect(row.errorMessage).toMatch(/Shopify/);
  });
});
