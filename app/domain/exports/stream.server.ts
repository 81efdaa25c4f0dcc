// A dataset as encoded text, page by page: the one generator behind both the export jobs (into a
// temporary file) and the Export Center's streamed download (into the HTTP response), so both
// produce the same bytes for the same rows (docs/decisions/056-export-datasets.md). A dataset the
// database can render (`encodedPages`, docs/decisions/068-export-renderer-in-sql.md) gives its
// pages already encoded; the header still comes from the encoder.
import type { Dataset, StreamOptions } from "./datasets.server";
import type { Encoder } from "./format";

export interface EncodedChunk {
  /** The chunk's text in pieces (one per row, or the header): written without joining them. */
  parts: readonly string[];
  /** Data rows in this chunk (the header chunk has 0). */
  rows: number;
  /** The pieces joined (computed when read). */
  readonly text: string;
}

export function encodedChunk(parts: readonly string[], rows: number): EncodedChunk {
  return {
    parts,
    rows,
    get text() {
      return parts.join("");
    },
  };
}

export async function* streamDataset<R>(dataset: Dataset<R>, enc: Encoder<R>, opts: StreamOptions): AsyncGenerator<EncodedChunk> {
  const start = enc.start();
  if (start) yield encodedChunk([start], 0);
  if (dataset.encodedPages) {
    yield* dataset.encodedPages(enc.format, opts);
    return;
  }
  for await (const page of dataset.rows(opts)) {
    const parts = new Array<string>(page.length);
    for (let i = 0; i < page.length; i++) parts[i] = enc.row(page[i]);
    yield encodedChunk(parts, page.length);
  }
}
