// Reads a bulk operation's JSONL result (docs/decisions/097-bulk-reads.md) line by line, without
// holding the file: a 100,000-contract shop's result is tens of megabytes. The URL is Shopify's
// signed storage link (the simulator's own in simulator mode); it needs no token.
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { PlatformError } from "./errors";

export type BulkRow = Record<string, unknown> & { id?: string; __parentId?: string };

/** Yields each row of the file in order, with its 0-based line number. */
export async function* bulkResultRows(url: string): AsyncGenerator<{ line: number; row: BulkRow }> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new PlatformError("unavailable", "The bulk operation's result could not be downloaded", { cause: err });
  }
  // A link past its seven days (or one its storage no longer has) answers 403/404: gone for good.
  const gone = res.status === 403 || res.status === 404;
  if (!res.ok || !res.body) throw new PlatformError("unavailable", `The bulk operation's result answered HTTP ${res.status}`, gone ? { code: "EXPIRED" } : {});
  const lines = createInterface({ input: Readable.fromWeb(res.body as unknown as WebReadableStream), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    if (text.trim()) yield { line, row: JSON.parse(text) as BulkRow };
    line++;
  }
}
