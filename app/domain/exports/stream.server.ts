// A dataset as encoded bytes, page by page: the one generator behind both the export jobs (into a
// temporary file) and the Export Center's streamed download (into the HTTP response), so both
// produce the same bytes for the same rows (docs/decisions/056-export-datasets.md). A dataset the
// database can hand over as bytes (`encodedPages`, docs/decisions/090-export-lines-from-binary-copy.md)
// gives its pages already encoded, written from a binary COPY; the header still comes from the encoder.
import { encodedChunk, type Dataset, type EncodedChunk, type StreamOptions } from "./stream-types";
import type { Encoder } from "../shared/format";

export async function* streamDataset<R>(dataset: Dataset<R>, enc: Encoder<R>, opts: StreamOptions): AsyncGenerator<EncodedChunk> {
  const start = enc.start();
  if (start) yield encodedChunk(Buffer.from(start, "utf8"), 0);
  if (dataset.encodedPages) {
    yield* dataset.encodedPages(enc.format, opts);
    return;
  }
  for await (const page of dataset.rows(opts)) {
    let text = "";
    for (let i = 0; i < page.length; i++) text += enc.row(page[i]);
    yield encodedChunk(Buffer.from(text, "utf8"), page.length);
  }
}
