// Where finished export files live, behind a small interface so object storage can replace the
// local directory (a file exists completely or not at all: docs/decisions/057-export-jobs.md). The renderer
// always writes a local temporary file first, measures it, and hands it to `publish`, which
// must make the object appear atomically (local: rename(2) within one filesystem; S3-style
// stores: a single PUT / completed multipart upload). docs/decisions/057-export-jobs.md.
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { env } from "../../env.server";
import { s3Storage } from "./s3-storage.server";

export interface ExportStorage {
  /** A local path to render into for this job (same filesystem as the store when it is local). */
  tempPath(jobId: string): Promise<string>;
  /** Makes `localFile` downloadable under `key`, atomically; the temporary file is consumed. */
  publish(key: string, localFile: string): Promise<void>;
  /** The stored bytes and their size, or null when there is no such object. */
  open(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Idempotent: removing a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** Every object under `folder` (a shop's data-request reports), idempotent. */
  removeFolder(folder: string): Promise<void>;
}

/** Keys are `<shop id>/<job id>.<ext>`: no user input reaches a path. */
export function storageKey(shopId: string, jobId: string, ext: string): string {
  return `${shopId}/${jobId}.${ext}`;
}

// One optional folder level and a plain name: no user input reaches a path, and nothing escapes the root.
// Data-request reports: data-requests/<shop domain>/<request>.json (app/domain/shop/lifecycle.server.ts).
const SAFE_KEY = /^(?:(?:[A-Za-z0-9_-]+\/)?[A-Za-z0-9_-]+\.(?:csv|jsonl)|data-requests\/[a-z0-9][a-z0-9.-]*\/[A-Za-z0-9_-]+\.json)$/;

/** Throws on a key that is not one the app makes. */
export function checkStorageKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes("..")) throw new Error(`not an export storage key: ${key}`);
}

export function localDirectoryStorage(root: string): ExportStorage {
  const dir = path.resolve(root);
  const partial = path.join(dir, ".partial");
  const file = (key: string) => {
    checkStorageKey(key);
    return path.join(dir, key);
  };
  return {
    async tempPath(jobId) {
      await mkdir(partial, { recursive: true });
      // One name per job: a retry after a crash truncates the previous attempt's partial file.
      return path.join(partial, `${jobId.replace(/[^A-Za-z0-9_-]/g, "")}.part`);
    },
    async publish(key, localFile) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(localFile, target);
    },
    async open(key) {
      const target = file(key);
      try {
        const s = await stat(target);
        return { body: createReadStream(target), size: s.size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(file(key), { force: true });
    },
    async removeFolder(folder) {
      await rm(path.dirname(file(`${folder}/x.json`)), { recursive: true, force: true });
    },
  };
}

let configured: ExportStorage | undefined;

/**
 * The configured store: EXPORTS_DIR, or with EXPORT_STORAGE=s3 a bucket (EXPORTS_DIR then only
 * holds the worker's temporary files; docs/decisions/146-object-storage.md). Tests may install another.
 */
export function exportStorage(): ExportStorage {
  const e = env();
  configured ??=
    e.EXPORT_STORAGE === "s3"
      ? s3Storage(
          {
            bucket: e.S3_BUCKET,
            prefix: e.S3_PREFIX,
            tempDir: e.EXPORTS_DIR,
            partSize: e.S3_PART_BYTES,
            client: { region: e.S3_REGION, forcePathStyle: e.S3_FORCE_PATH_STYLE, ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}) },
          },
          checkStorageKey,
        )
      : localDirectoryStorage(e.EXPORTS_DIR);
  return configured;
}

export function setExportStorage(storage: ExportStorage | undefined): void {
  configured = storage;
}
