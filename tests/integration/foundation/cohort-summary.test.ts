// The cohort summary (contract_cohorts) equals a direct recount of contracts after any sequence
// of writes: inserts, status changes (ended_at set or cleared as the mirror does), time edits,
// deletions, ownership flips. A contract's end is its ended_at (docs/decisions/041).
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { prisma } from "../../../app/db.server";
import { createShop } from "../../support/fixtures";

const STATUSES = ["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED"] as const;
const month = (i: number) => new Date(Date.UTC(2024, i, 1 + (i % 27), 12));
const ENDED: readonly string[] = ["CANCELLED", "EXPIRED", "FAILED"];

type Op =
  | { kind: "insert"; created: number; status: (typeof STATUSES)[number]; updated: number }
  | { kind: "status"; pick: number; status: (typeof STATUSES)[number] }
  | { kind: "touch"; pick: number; updated: number }
  | { kind: "delete"; pick: number }
  | { kind: "foreign"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), created: fc.nat(20), status: fc.constantFrom(...STATUSES), updated: fc.nat(10) }),
  fc.record({ kind: fc.constant("status" as const), pick: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant("touch" as const), pick: fc.nat(), updated: fc.nat(10) }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("foreign" as const), pick: fc.nat() }),
);

async function recount(shopId: string) {
  const rows = await prisma.$queryRaw<Array<{ c: number; e: number; n: number }>>`
    SELECT contract_month(created_at) AS c, contract_ended_month(ended_at) AS e, count(*)::int AS n
    FROM contracts WHERE shop_id = ${shopId} AND created_by_service GROUP BY 1, 2`;
  return Object.fromEntries(rows.map((r) => [`${r.c}/${r.e}`, r.n]));
}

async function summary(shopId: string) {
  const rows = await prisma.contractCohort.findMany({ where: { shopId, count: { gt: 0 } } });
  return Object.fromEntries(rows.map((r) => [`${r.cohortMonth}/${r.endedMonth}`, r.count]));
}

it("matches a recount after any sequence of writes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
      const shop = await createShop({ appPlan: "FREE", offlineSession: false });
      const ids: string[] = [];
      for (const o of ops) {
        const target = ids.length ? ids[("pick" in o ? o.pick : 0) % ids.length] : null;
        if (o.kind === "insert") {
          const created = month(o.created);
          const row = await prisma.contract.create({
            data: {
              shopId: shop.id,
              contractGid: `gid://shopify/SubscriptionContract/${randomUUID()}`,
              status: o.status,
              customerGid: "gid://shopify/Customer/1",
              currencyCode: "USD",
              createdAt: created,
              updatedAt: month(o.created + o.updated),
              endedAt: ENDED.includes(o.status) ? month(o.created + o.updated) : null,
            },
          });
          ids.push(row.id);
        } else if (target && o.kind === "status") {
          const c = await prisma.contract.findUniqueOrThrow({ where: { id: target } });
          await prisma.contract.update({
            where: { id: target },
            data: { status: o.status, endedAt: ENDED.includes(o.status) ? (c.endedAt ?? c.updatedAt) : null },
          });
        } else if (target && o.kind === "touch") {
          const c = await prisma.contract.findUniqueOrThrow({ where: { id: target } });
          const at = new Date(c.createdAt.getTime() + o.updated * 30 * 86_400_000);
          // An ended contract's end moves with it (a corrected end time); a live one only changes updated_at.
          await prisma.contract.update({ where: { id: target }, data: { updatedAt: at, endedAt: c.endedAt ? at : null } });
        } else if (target && o.kind === "delete") {
          await prisma.contract.delete({ where: { id: target } });
          ids.splice(ids.indexOf(target), 1);
        } else if (target && o.kind === "foreign") {
          await prisma.contract.update({ where: { id: target }, data: { createdByService: false } });
        }
      }
      expect(await summary(shop.id)).toEqual(await recount(shop.id));
      // A shop's erasure takes its summary with it.
      await prisma.shop.delete({ where: { id: shop.id } });
      expect(await prisma.contractCohort.count({ where: { shopId: shop.id } })).toBe(0);
    }),
    { numRuns: 25 },
  );
});
