// Binary COPY reads on the hot-path pool, for the export renderer (docs/decisions/090-export-lines-from-binary-copy.md):
// a query's rows arrive as the bytes PostgreSQL sends, with no per-row JavaScript string or
// object, which is most of what reading a result set costs the worker. COPY takes no bind
// parameters, so the query's values are written into its text as the literals PostgreSQL would
// have received as text parameters (`inlineSql`).
import type { Prisma } from "@prisma/client";
import pg from "pg";
import { hotPool, onNewConnection, readWithRetry, utcParam } from "./pg.server";

/**
 * `sql` with each value written as a quoted literal of unknown type, exactly as a text parameter
 * is received, so the statement means the same: a Date first becomes its UTC wall clock as
 * every hot-pool parameter does (`utcParam`, app/infra/pg.server.ts); quoting is pg's own
 * `escapeLiteral`; an array is PostgreSQL's array text form, quoted.
 */
export function inlineSql(sql: Prisma.Sql): string {
  let text = sql.strings[0];
  for (let i = 0; i < sql.values.length; i++) text += literal(utcParam(sql.values[i])) + sql.strings[i + 1];
  return text;
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return pg.escapeLiteral(v);
  if (typeof v === "number" && Number.isFinite(v)) return `'${v}'`;
  if (typeof v === "bigint" || typeof v === "boolean") return `'${v}'`;
  if (Array.isArray(v)) return pg.escapeLiteral(`{${v.map(arrayElement).join(",")}}`);
  throw new Error(`a ${typeof v} value cannot be written into a COPY statement`);
}

function arrayElement(v: unknown): string {
  if (v === null) return "NULL";
  if (typeof v === "string") return `"${v.replace(/[\\"]/g, "\\$&")}"`;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  throw new Error(`a ${typeof v} array element cannot be written into a COPY statement`);
}

/**
 * A `COPY ... TO STDOUT` read into one Buffer, as a pg "submittable" (pg hands it the protocol's
 * messages): each CopyData message is copied into the output as it arrives. PostgreSQL sends one
 * per row; through a Readable stream (pg-copy-streams) each cost more than the copy itself
 * (docs/decisions/091-subscription-list-from-binary-copy.md).
 */
class CopyOut implements pg.Submittable {
  private out = Buffer.allocUnsafe(64 * 1024);
  private size = 0;
  private settle!: { resolve(bytes: Buffer): void; reject(err: Error): void };
  readonly done = new Promise<Buffer>((resolve, reject) => (this.settle = { resolve, reject }));

  constructor(private readonly text: string) {}

  submit(connection: pg.Connection & { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(msg: { chunk: Buffer }): void {
    const chunk = msg.chunk; // a view into pg's read buffer, which it reuses: copy it now
    if (this.size + chunk.length > this.out.length) {
      const next = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.size + chunk.length));
      this.out.copy(next, 0, 0, this.size);
      this.out = next;
    }
    this.size += chunk.copy(this.out, this.size);
  }

  handleCommandComplete(): void {}

  /** The statement is over: after an error pg reports it here instead (handleError). */
  handleReadyForQuery(): void {
    this.settle.resolve(this.out.subarray(0, this.size));
  }

  handleError(err: Error): void {
    this.settle.reject(err);
  }
}

/**
 * `COPY (sql) TO STDOUT (FORMAT binary)`: the whole output in one Buffer (callers keep queries
 * small); read again on a new connection when the first was lost (readWithRetry).
 */
export function copyBinary(sql: Prisma.Sql): Promise<Buffer> {
  const text = `COPY (${inlineSql(sql)}) TO STDOUT (FORMAT binary)`;
  return readWithRetry(
    () => copyOnPooled(text),
    () => onNewConnection(hotPool(), (client) => copyOut(client, text)),
  );
}

function copyOut(client: pg.ClientBase, text: string): Promise<Buffer> {
  const copy = new CopyOut(text);
  client.query(copy);
  return copy.done;
}

async function copyOnPooled(text: string): Promise<Buffer> {
  const client = await hotPool().connect();
  // A checked-out client whose backend ends between statements emits `error`; unheard, that kills
  // the process. The COPY itself fails with the same error, so nothing more is needed here.
  const ignore = () => undefined;
  client.on("error", ignore);
  let failure: Error | undefined;
  try {
    return await copyOut(client, text);
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.removeListener("error", ignore);
    // A connection whose COPY failed is discarded, not returned to the pool.
    client.release(failure);
  }
}

/** The binary COPY header: signature, flags, and the extension area's length. */
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** Binary timestamps count microseconds from 2000-01-01 00:00 UTC. */
export const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

/**
 * Where the rows of a binary COPY begin, after its header. Each row is then an int16 field
 * count (-1 for the trailer) and, per field, an int32 byte length (-1 for NULL) and the bytes.
 */
export function binaryRowsStart(copy: Buffer): number {
  if (copy.length < 21 || !copy.subarray(0, 11).equals(SIGNATURE)) throw new Error("not a binary COPY");
  return 19 + copy.readUInt32BE(15);
}
