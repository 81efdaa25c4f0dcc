// Writing an export's text to its temporary file (app/domain/exports/render.server.ts);
// docs/decisions/068-export-renderer-in-sql.md.
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";

/**
 * Text to the temporary file through one reused 1 MiB buffer: each piece (a row's line) is
 * UTF-8-encoded straight into it, and a full buffer is hashed and written (awaited: the disk's
 * pace is the render's pace). No per-page string or Buffer is built, so memory stays flat
 * whatever the row count. `add` answers false instead of passing `max` bytes.
 */
export class FileSink {
  private static readonly SIZE = 1 << 20;
  private buf = Buffer.allocUnsafe(FileSink.SIZE);
  private used = 0;
  bytes = 0;
  readonly hash = createHash("sha256");

  constructor(
    private readonly fh: FileHandle,
    private readonly max: number,
  ) {}

  async add(text: string): Promise<boolean> {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: the bound that guarantees `write` fits whole.
    if (this.used + text.length * 3 > FileSink.SIZE) await this.flush();
    if (text.length * 3 > FileSink.SIZE) {
      const big = Buffer.from(text, "utf8");
      if (this.bytes + big.length > this.max) return false;
      await this.out(big);
      return true;
    }
    const n = this.buf.write(text, this.used, "utf8");
    if (this.bytes + this.used + n > this.max) return false;
    this.used += n;
    return true;
  }

  async flush(): Promise<void> {
    if (!this.used) return;
    const view = this.buf.subarray(0, this.used);
    this.used = 0;
    await this.out(view);
  }

  private async out(b: Buffer): Promise<void> {
    this.hash.update(b);
    await this.fh.write(b);
    this.bytes += b.length;
  }
}
