// Exports and data-request reports in an S3-compatible bucket (docs/decisions/146-object-storage.md),
// against a local s3rver. The web server (this process) and the worker (a child process) are given
// different local directories, so they behave like two machines: whatever the web serves, it reads
// from the bucket. A worker SIGKILLed while its upload is in flight leaves nothing visible, and the
// retried job publishes; the expiry sweep, the uninstall webhook and shop/redact remove the objects.
vi.hoisted(() => {
  const port = Number(process.env.PORT);
  process.env.SCALE_S3_PORT = String(port + 45);
  process.env.SCALE_S3_PROXY_PORT = String(port + 46);
  process.env.EXPORT_STORAGE = "s3";
  process.env.S3_BUCKET = "exports-test";
  process.env.S3_PREFIX = `run-${process.env.REDIS_PREFIX}/`;
  process.env.S3_ENDPOINT = `http://127.0.0.1:${port + 45}`;
  process.env.S3_FORCE_PATH_STYLE = "true";
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  process.env.EXPORTS_DIR = `${process.env.EXPORTS_DIR}-web`;
});
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { prisma } from "../../../app/db.server";
import { runDailySweep } from "../../../app/domain/housekeeping/daily-sweep.server";
import { exportStorage } from "../../../app/domain/exports/storage.server";
import { env } from "../../../app/env.server";
import { exited, startWorker, type WorkerProcess } from "../../support/processes";
import { eventually, useStack } from "../../support/stack";
import { exportsShop, finished } from "../../support/exports";
import { createContracts } from "../../support/fixtures";

const stack = useStack({ workers: false });
const s3Port = Number(process.env.SCALE_S3_PORT);
const proxyPort = Number(process.env.SCALE_S3_PROXY_PORT);
let s3: S3rver;
let proxy: http.Server;
/** While set, the proxy holds every upload (PUT) and calls this instead of forwarding it. */
let holdUploads: (() => void) | null = null;
const workers: WorkerProcess[] = [];
const client = new S3Client({
  region: "us-east-1",
  endpoint: `http://127.0.0.1:${s3Port}`,
  forcePathStyle: true,
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
});

beforeAll(async () => {
  s3 = new S3rver({
    port: s3Port,
    address: "127.0.0.1",
    silent: true,
    directory: mkdtempSync(path.join(tmpdir(), "s3rver-")),
    configureBuckets: [{ name: "exports-test", configs: [] }],
  });
  await s3.run();
  // The worker reaches the bucket through this proxy, so the test can stop an upload in flight.
  proxy = http.createServer((req, res) => {
    if (holdUploads && req.method === "PUT") {
      holdUploads();
      return; // never answered: the worker is killed while it waits
    }
    const up = http.request({ host: "127.0.0.1", port: s3Port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
}, 60_000);
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) await w.stop();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await s3?.close();
});

/** A worker process for every queue, with a local directory of its own, uploading through the proxy. */
function startBucketWorker(): WorkerProcess {
  const w = startWorker("", { EXPORTS_DIR: `${env().EXPORTS_DIR}-worker`, S3_ENDPOINT: `http://127.0.0.1:${proxyPort}`, EXPORT_PAGE_ROWS: "500" });
  workers.push(w);
  return w;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const out = await client.send(new ListObjectsV2Command({ Bucket: "exports-test", Prefix: env().S3_PREFIX + prefix }));
  return (out.Contents ?? []).map((o) => o.Key!.slice(env().S3_PREFIX.length));
}

it("an export survives a worker killed mid-upload, is served from the bucket by a web server that never had the file, and is removed by expiry and uninstall", async () => {
  const { domain, shopId, call } = await exportsShop(stack);
  await createContracts(shopId, 3000, (i) => ({ createdAt: new Date(Date.UTC(2026, 0, 1) - i * 1000), productTitle: `Product ${i}` }));

  const first = startBucketWorker();
  await first.ready;
  const uploading = new Promise<void>((resolve) => (holdUploads = resolve));
  const created = await call("POST", "/exports", { dataset: "subscriptions", format: "csv" });
  expect(created.status).toBe(202);
  const id = created.json!.id;
  await uploading;
  const gone = exited(first);
  first.kill("SIGKILL");
  expect((await gone).signal).toBe("SIGKILL");
  holdUploads = null;
  // Nothing visible: no object for the shop, no file, the job not ready.
  expect(await keysUnder(`${shopId}/`)).toEqual([]);
  expect((await call("GET", `/exports/${id}`)).json!.status).toBe("running");

  const second = startBucketWorker();
  await second.ready;
  const job = await finished(call, id, 120_000);
  expect(job.status).toBe("ready");
  expect(await keysUnder(`${shopId}/`)).toEqual([`${shopId}/${id}.csv`]);
  // The web server's own directory never held it: the bytes come from the bucket.
  const webDir = path.resolve(env().EXPORTS_DIR, shopId);
  expect(existsSync(webDir) ? readdirSync(webDir) : []).toEqual([]);

  const res = await fetch(job.download_url!);
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const row = await prisma.exportJob.findUniqueOrThrow({ where: { id } });
  expect(bytes.length).toBe(Number(row.byteSize));
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(row.sha256);
  expect(bytes.toString("utf8").split("\r\n").length).toBe(3002); // header, 3,000 rows, final CRLF

  // Expiry: 25 hours after ready, the daily sweep deletes the object.
  await prisma.exportJob.update({ where: { id }, data: { readyAt: new Date(Date.now() - 25 * 3600_000) } });
  await runDailySweep(new Date());
  expect(await keysUnder(`${shopId}/`)).toEqual([]);
  expect(await exportStorage().open(`${shopId}/${id}.csv`)).toBeNull();

  // Uninstall: the app/uninstalled webhook deletes the shop's exports, objects too.
  const again = await call("POST", "/exports", { dataset: "subscriptions", format: "jsonl" });
  const ready = await finished(call, again.json!.id, 120_000);
  expect(ready.status).toBe("ready");
  expect(await keysUnder(`${shopId}/`)).toHaveLength(1);
  await stack.control.call("POST", `${stack.control.shop(domain)}/webhooks`, { topic: "app/uninstalled" });
  await eventually(async () => (await keysUnder(`${shopId}/`)).length === 0, 60_000);
}, 400_000);

it("a data-request report is written to the bucket by the worker and erased by shop/redact", async () => {
  const { domain } = await stack.installShop();
  if (!workers.some((w) => w.exitCode === null && w.signalCode === null)) await startBucketWorker().ready;
  const contract = await stack.control.call<{ id: string; customerId: string }>("POST", `${stack.control.shop(domain)}/contracts`, {});
  await stack.control.call("POST", `${stack.control.shop(domain)}/webhooks`, { topic: "customers/data_request", customerId: contract.customerId });
  const [key] = await eventually(async () => {
    const keys = await keysUnder(`data-requests/${domain}/`);
    return keys.length ? keys : null;
  }, 60_000);
  const file = await exportStorage().open(key);
  const text = await new Promise<string>((resolve, reject) => {
    const parts: Buffer[] = [];
    file!.body
      .on("data", (c: Buffer) => parts.push(c))
      .on("end", () => resolve(Buffer.concat(parts).toString("utf8")))
      .on("error", reject);
  });
  expect(JSON.parse(text)).toMatchObject({ shop_domain: domain, customer_id: contract.customerId });

  await stack.control.call("POST", `${stack.control.shop(domain)}/webhooks`, { topic: "shop/redact" });
  await eventually(async () => (await keysUnder(`data-requests/${domain}/`)).length === 0, 60_000);
}, 200_000);
