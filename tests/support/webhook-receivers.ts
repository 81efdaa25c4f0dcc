// Real HTTPS webhook receivers on loopback for the delivery tests: the receivers and their
// self-signed certificate (tests/support/https-receiver.ts, trusted by the worker process through
// Node's standard NODE_EXTRA_CA_CERTS), the delivery worker as a real process (workers/main.ts),
// and the /docs signature verifier compiled from the very text /docs shows.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { WEBHOOK_VERIFIER } from "../../app/surfaces/docs.server";
import { startWorker, type WorkerProcess } from "./processes";
import type { TestCert } from "./https-receiver";

export { makeCert, readCert, startReceiver, type Behaviour, type Received, type Receiver, type TestCert } from "./https-receiver";

/** workers/main.ts as a real process, trusting the test certificate through NODE_EXTRA_CA_CERTS. */
export async function startDeliveryWorker(cert: TestCert | null, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = startWorker("mirror,webhooks,sweeps", {
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: "127.0.0.1/32",
    WEBHOOK_TIMEOUT_MS: "3000",
    WORKER_SHUTDOWN_GRACE_MS: "2000",
    WORKER_CONCURRENCY: "8",
    ...(cert ? { NODE_EXTRA_CA_CERTS: cert.certPath } : {}),
    ...env,
  });
  await child.ready;
  return child;
}

type Verifier = (rawBody: string | Buffer, header: string | null | undefined, secret: string, toleranceSeconds?: number, nowSeconds?: number) => boolean;

/** The verifier exactly as /docs prints it, written to a file and imported. */
export async function documentedVerifier(): Promise<Verifier> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "verifier-")), "verify.ts");
  writeFileSync(file, WEBHOOK_VERIFIER);
  const mod = (await import(pathToFileURL(file).href)) as { verifyServiceSignature: Verifier };
  return mod.verifyServiceSignature;
}
