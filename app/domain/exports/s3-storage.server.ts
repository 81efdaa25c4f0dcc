// Export files and data-request reports in an S3-compatible bucket, behind the same ExportStorage
// as the local directory (docs/decisions/146-object-storage.md), so a worker on one machine
// publishes and a web server on another serves. The renderer still writes a local temporary file
// (EXPORTS_DIR on the worker); `publish` uploads it with @aws-sdk/lib-storage (multipart above
// one part), and an object exists only once its upload completed: a failed upload is aborted
// (its parts deleted) and a killed one was never completed, so nothing half-written is visible.
// Downloads keep going through the app's signed URL (/docs#tag/Admin-API:-Exports): no bucket
// URL is ever handed out.
import { createReadStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";

export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key ("exports/" puts them under one folder of a shared bucket). */
  prefix: string;
  /** Where the worker renders before uploading (a local disk of its own). */
  tempDir: string;
  /** Bytes per multipart part (S3's minimum is 5 MiB). */
  partSize: number;
  client: S3ClientConfig;
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
};

/** The ExportStorage of ./storage.server.ts (checked there, where it is installed; no import back, no cycle). */
export function s3Storage(opts: S3StorageOptions, checkKey: (key: string) => void) {
  const client = new S3Client(opts.client);
  const objectKey = (key: string) => {
    checkKey(key);
    return opts.prefix + key;
  };
  return {
    client,
    async tempPath(jobId: string): Promise<string> {
      const dir = path.resolve(opts.tempDir, ".partial");
      await mkdir(dir, { recursive: true });
      return path.join(dir, `${jobId.replace(/[^A-Za-z0-9_-]/g, "")}.part`);
    },
    async publish(key: string, localFile: string): Promise<void> {
      const upload = new Upload({
        client,
        params: { Bucket: opts.bucket, Key: objectKey(key), Body: createReadStream(localFile) },
        partSize: opts.partSize,
        queueSize: 2,
        // On a failed part the multipart upload is aborted: no parts are left to pay for.
        leavePartsOnError: false,
      });
      await upload.done();
      await rm(localFile, { force: true });
    },
    async open(key: string): Promise<{ body: Readable; size: number } | null> {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: opts.bucket, Key: objectKey(key) }));
        return { body: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async remove(key: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket: opts.bucket, Key: objectKey(key) }));
    },
    async removeFolder(folder: string): Promise<void> {
      checkKey(`${folder}/x.json`);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: opts.bucket, Prefix: `${opts.prefix}${folder}/`, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket: opts.bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
