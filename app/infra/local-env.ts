// Local defaults for the npm scripts (setup, dev, start, cli, test, bench). Only variables that
// are unset get a value, so any of them can be overridden; with NODE_ENV=production set by the
// operator nothing is defaulted and app/env.server.ts refuses to start without real values.
// The secrets below are public development values: never use them for a real shop.
export const LOCAL_DEFAULTS: Record<string, string> = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/subscriptions_dev",
  REDIS_URL: "redis://127.0.0.1:6379/0",
  PORT: "3000",
  SIMULATOR_PORT: "3100",
  SHOPIFY_API_KEY: "dev-api-key",
  SHOPIFY_API_SECRET: "dev-api-secret-not-for-production",
  SERVICE_SECRET: "dev-service-secret-0123456789abcdef0123456789abcdef",
  ENCRYPTION_KEY: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
  SIMULATOR_STATE_FILE: ".data/simulator.json",
  EXPORTS_DIR: ".data/exports",
};

export function applyLocalDefaults(target: NodeJS.ProcessEnv = process.env): void {
  if (target.NODE_ENV === "production") return;
  for (const [name, value] of Object.entries(LOCAL_DEFAULTS)) target[name] ??= value;
  target.SHOPIFY_APP_URL ??= `http://localhost:${target.PORT}`;
  // Simulator mode unless pointed at real Shopify (SHOPIFY_SIMULATOR_URL= empty disables it).
  // Mail goes to the local mailbox unless SMTP_URL says otherwise; its ledger settles a message
  // whose sender stopped mid-send (docs/decisions/133-mail-in-doubt.md).
  if (target.SMTP_URL === undefined) target.MAIL_LEDGER_URL ??= `http://127.0.0.1:${target.MAILBOX_WEB_PORT ?? 1080}/api/accepted`;
  if (target.SHOPIFY_SIMULATOR_URL === undefined) target.SHOPIFY_SIMULATOR_URL = `http://127.0.0.1:${target.SIMULATOR_PORT}`;
  if (target.SHOPIFY_SIMULATOR_URL === "") delete target.SHOPIFY_SIMULATOR_URL;
}
