// The shop's import ledger: each contract's key claimed before its platform call and settled after
// it, so the same file twice creates nothing twice and a crash resumes without duplicates
// (docs/decisions/085-migration-import.md).
import { prisma } from "../../db.server";
import { type PlannedContract } from "./plan";

export type ItemOutcome =
  | { status: "created"; contractGid: string; customerGid: string }
  | { status: "skipped"; contractGid: string | null }
  | { status: "failed"; column: string | null; message: string };

export interface Settled {
  plan: PlannedContract;
  outcome: ItemOutcome;
}

/** Contracts handled together: one ledger claim, one customer lookup, one customer creation request and one settle each. */
export const IMPORT_BATCH = 25;
/** Batches in flight at once: the next batch's claim and customers overlap the current one's contracts. */
export const BATCHES_IN_FLIGHT = 2;

/**
 * Claims the batch's keys in the shop's ledger in one statement, before any platform call. The
 * answer is every key some earlier claim already held (settled or not), with its entry.
 */
export async function claimBatch(shopId: string, importId: string, keys: string[]) {
  const inserted = await prisma.$queryRaw<{ import_key: string }[]>`
    INSERT INTO imported_contracts (shop_id, import_key, import_id, state, claimed_at)
    SELECT ${shopId}, k, ${importId}, 'claimed', now() FROM unnest(${keys}::text[]) AS k
    ON CONFLICT (shop_id, import_key) DO NOTHING
    RETURNING import_key`;
  const mine = new Set(inserted.map((r) => r.import_key));
  const held = keys.filter((k) => !mine.has(k));
  const rows = held.length ? await prisma.importedContract.findMany({ where: { shopId, importKey: { in: held } } }) : [];
  return new Map(rows.map((r) => [r.importKey, r]));
}

/**
 * Records a batch's outcomes in one transaction: created keys settled in the ledger with their
 * contract, refused ones' claims released (so the fixed row can be imported later), and every
 * item's status. A crash before this leaves claims unsettled, which the next run resolves by
 * reading the platform (runBatch), so recording a batch at once loses nothing.
 */
export async function settleBatch(shopId: string, importId: string, done: Settled[]): Promise<void> {
  const created = done.flatMap((d) => (d.outcome.status === "created" ? [{ key: d.plan.key, ...d.outcome }] : []));
  const skipped = done.flatMap((d) => (d.outcome.status === "skipped" ? [{ key: d.plan.key, ...d.outcome }] : []));
  const failed = done.flatMap((d) => (d.outcome.status === "failed" ? [{ key: d.plan.key, ...d.outcome }] : []));
  const writes = [];
  if (created.length) {
    const keys = created.map((c) => c.key);
    const gids = created.map((c) => c.contractGid);
    const customers = created.map((c) => c.customerGid);
    writes.push(
      prisma.$executeRaw`
        UPDATE imported_contracts AS l SET state = 'created', contract_gid = v.gid, import_id = ${importId}
        FROM unnest(${keys}::text[], ${gids}::text[]) AS v(k, gid)
        WHERE l.shop_id = ${shopId} AND l.import_key = v.k`,
      prisma.$executeRaw`
        UPDATE migration_import_items AS i SET status = 'created', contract_gid = v.gid, customer_gid = v.cust, updated_at = now()
        FROM unnest(${keys}::text[], ${gids}::text[], ${customers}::text[]) AS v(k, gid, cust)
        WHERE i.import_id = ${importId} AND i.import_key = v.k`,
    );
  }
  if (skipped.length) {
    const keys = skipped.map((c) => c.key);
    const gids = skipped.map((c) => c.contractGid);
    writes.push(prisma.$executeRaw`
      UPDATE migration_import_items AS i SET status = 'skipped', contract_gid = v.gid, updated_at = now()
      FROM unnest(${keys}::text[], ${gids}::text[]) AS v(k, gid)
      WHERE i.import_id = ${importId} AND i.import_key = v.k`);
  }
  if (failed.length) {
    const keys = failed.map((c) => c.key);
    const columns = failed.map((c) => c.column);
    const messages = failed.map((c) => c.message.slice(0, 1000));
    writes.push(
      prisma.importedContract.deleteMany({ where: { shopId, importKey: { in: keys }, state: "claimed" } }),
      prisma.$executeRaw`
        UPDATE migration_import_items AS i SET status = 'failed', error_column = v.col, error_message = v.msg, updated_at = now()
        FROM unnest(${keys}::text[], ${columns}::text[], ${messages}::text[]) AS v(k, col, msg)
        WHERE i.import_id = ${importId} AND i.import_key = v.k`,
    );
  }
  if (writes.length) await prisma.$transaction(writes);
}
