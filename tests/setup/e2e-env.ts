// The environment of the e2e run's app processes (tests/e2e/serve.ts), shared with the e2e tests
// that run a script of the project against the same stack (the demo seed).
import path from "node:path";
import { E2E_PORT, PG_BASE, REDIS_URL, redisPrefix, workerDb } from "./workers";

/**
 * The e2e run's webhook receiver certificate (key.pem, cert.pem): made by tests/e2e/serve.ts
 * before the app starts, trusted by its workers through NODE_EXTRA_CA_CERTS, served by the
 * receivers the tests start (tests/e2e/admin-webhooks.spec.ts).
 */
export const E2E_RECEIVER_CERT_DIR = path.resolve(".data/e2e/webhook-receiver");

export function e2eEnv(): NodeJS.ProcessEnv {
  const port = E2E_PORT;
  return {
    ...process.env,
    NODE_ENV: "test",
    DATABASE_URL: `${PG_BASE}/${workerDb("e2e")}`,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix("e2e"),
    PORT: String(port),
    SIMULATOR_PORT: String(port + 1),
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    SHOPIFY_SIMULATOR_URL: `http://127.0.0.1:${port + 1}`,
    SIMULATOR_STATE_FILE: ".data/e2e/simulator.json",
    EXPORTS_DIR: ".data/e2e/exports",
    // Receivers on this machine (docs/decisions/053-webhook-url-rules.md, Development): loopback
    // IPv4 is admitted for endpoints, and the receivers' self-signed certificate is trusted.
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: "127.0.0.1/32",
    NODE_EXTRA_CA_CERTS: path.join(E2E_RECEIVER_CERT_DIR, "cert.pem"),
    // The local mailbox, started by run-all beside the app (docs/decisions/104-local-mailbox.md).
    MAILBOX: "on",
    MAILBOX_SMTP_PORT: String(port + 2),
    MAILBOX_WEB_PORT: String(port + 3),
    SMTP_URL: `smtp://127.0.0.1:${port + 2}`,
    MAIL_LEDGER_URL: `http://127.0.0.1:${port + 3}/api/accepted`,
  };
}
