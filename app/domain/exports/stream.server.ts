// A dataset as encoded text, page by page: the one generator behind both the export jobs (into a
// temporary file) and the Export Center's streamed download (into the HTTP response), so both
// produce the same bytes for the same rows (spec 2, "What the service does" 2).
import type { Dataset, StreamOptions } from "./datasets.server";
import type { Encoder } from "./format";

export interface EncodedChunk {
  text: string;
  /** Data rows in this chunk (the header chunk has 0). */
  rows: number;
}

export async function* streamDataset<R>(dataset: Dataset<R>, enc: Encoder<R>, opts: StreamOptions): AsyncGenerator<EncodedChunk> {
  const start = enc.start();
  if (start) yield { text: start, rows: 0 };
  for await (const page of dataset.rows(opts)) {
    let text = "";
    for (const row of page) text += enc.row(row);
    yield { text, rows: page.length };
  }
}
