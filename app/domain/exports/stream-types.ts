// The shapes an export stream is made of, in one leaf (docs/decisions/092-rooms-and-layers.md): the
// dataset names, a dataset's contract (./datasets.server.ts implements five), the options of one
// stream and the encoded chunk it yields (./stream.server.ts). The dataset modules, the migration
// rows and the stream generator all read them here instead of from one another.
import type { Scope } from "../keys/keys.server";
import type { Column, ExportFormat } from "../shared/format";
import type { SubscriptionFilterOptions } from "../subscriptions/filters.server";

export const DATASET_NAMES = ["subscriptions", "plans", "bundles", "mix_match", "migration"] as const;
export type DatasetName = (typeof DATASET_NAMES)[number];

export interface StreamOptions {
  shopId: string;
  /** Only the subscriptions dataset takes filters (the surface refuses them elsewhere). */
  filters: SubscriptionFilterOptions;
  /** Clock for view=renewals. */
  now: Date;
  /** Rows per keyset page. */
  pageSize?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Dataset<R = any> {
  name: DatasetName;
  description: string;
  /** All of them are required: exactly what paging the same rows on the API needs. */
  scopes: readonly Scope[];
  customerData: boolean;
  takesFilters: boolean;
  columns: readonly Column<R>[];
  rows(opts: StreamOptions): AsyncGenerator<R[]>;
  /**
   * The same rows already encoded, written from binary COPY pages (app/domain/shared/format-binary.ts): what
   * `streamDataset` uses when present. Same bytes as `rows` through `encoder()`.
   */
  encodedPages?(format: ExportFormat, opts: StreamOptions): AsyncGenerator<EncodedChunk>;
}

export interface EncodedChunk {
  /** The chunk's UTF-8 bytes. */
  bytes: Uint8Array;
  /** Data rows in this chunk (the header chunk has 0). */
  rows: number;
  /** The bytes as text (decoded when read). */
  readonly text: string;
}

export function encodedChunk(bytes: Uint8Array, rows: number): EncodedChunk {
  return {
    bytes,
    rows,
    get text() {
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    },
  };
}
