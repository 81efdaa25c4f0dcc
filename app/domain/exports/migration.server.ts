// Rows of the migration dataset: contracts of the mirror, keyset-paged, with their lines, and
// for each page ONE batched platform read of the page's customers (nodes(ids:), 100 per call;
// the GraphQL client waits out THROTTLED answers by the bucket's restore rate). This is the
// only dataset that calls the platform while rendering; a platform failure fails the render
// (render_failed) after the job's retries, an uninstalled shop fails it with shop_unavailable.
import { prisma } from "../../db.server";
import { platformFor } from "../../platform/index.server";
import type { PlatformCustomer } from "../../platform/port";
import { KEYSET_ORDER, afterWhere, type Keyset } from "../shared/paging.server";
import type { StreamOptions } from "./stream-types";
import type { MigrationRow } from "./migration-columns";

export async function* migrationRows(o: StreamOptions): AsyncGenerator<MigrationRow[]> {
  const size = o.pageSize ?? 100;
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: o.shopId }, select: { domain: true } });
  const port = await platformFor(shop.domain, "importer");
  let after: Keyset | null = null;
  for (;;) {
    const contracts = await prisma.contract.findMany({
      where: { shopId: o.shopId, createdByService: true, ...afterWhere(after) },
      orderBy: KEYSET_ORDER,
      take: size,
      include: { lines: { orderBy: [{ position: "asc" }, { id: "asc" }] } },
    });
    if (!contracts.length) return;
    const ids = [...new Set(contracts.map((c) => c.customerGid))];
    const customers = new Map<string, PlatformCustomer>((await port.getCustomers(ids)).map((c) => [c.id, c]));
    const rows: MigrationRow[] = [];
    for (const c of contracts) {
      const contract = {
        contractGid: c.contractGid,
        status: c.status,
        customerGid: c.customerGid,
        currencyCode: c.currencyCode,
        nextBillingAt: c.nextBillingAt,
        billingInterval: c.billingInterval,
        billingIntervalCount: c.billingIntervalCount,
        sellingPlanGroupGid: c.sellingPlanGroupGid,
        sellingPlanGid: c.sellingPlanGid,
        orderName: c.orderName,
        createdAt: c.createdAt,
      };
      const customer = customers.get(c.customerGid) ?? null;
      if (!c.lines.length) rows.push({ contract, customer, line: null });
      c.lines.forEach((l, i) =>
        rows.push({
          contract,
          customer,
          line: {
            position: i + 1,
            variantGid: l.variantGid,
            productGid: l.productGid,
            title: l.title,
            variantTitle: l.variantTitle,
            quantity: l.quantity,
            priceCents: l.priceCents,
            sellingPlanGid: l.sellingPlanGid,
          },
        }),
      );
    }
    yield rows;
    if (contracts.length < size) return;
    const last: Keyset = contracts[contracts.length - 1];
    after = { createdAt: last.createdAt, id: last.id };
  }
}
