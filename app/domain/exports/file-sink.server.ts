// Writing an export's bytes to its temporary file (app/domain/exports/render.server.ts);
// docs/decisions/068-export-renderer-in-sql.md.
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";

/**
 * Chunks (a page each, already UTF-8) hashed and written as they come, each write awaited: the
 * disk's pace is the render's pace, and memory holds no more than the chunk in hand. `add`
 * answers false instead of passing `max` bytes.
 */
export class FileSink {
  bytes = 0;
  readonly hash = createHash("sha256");

  constructor(
    private readonly fh: FileHandle,
    private readonly max: number,
  ) {}

  async add(chunk: Uint8Array): Promise<boolean> {
    if (this.bytes + chunk.byteLength > this.max) return false;
    this.hash.update(chunk);
    await this.fh.write(chunk);
    this.bytes += chunk.byteLength;
    return true;
  }
}
