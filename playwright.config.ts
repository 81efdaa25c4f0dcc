// End-to-end tests in Debian's chromium (no Playwright browser download on these machines).
// The web server is the built app with its simulator, on ports of its own and the e2e database.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_PATH, E2E_PORT as PORT } from "./tests/setup/workers";

export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;

/**
 * The files that read or re-seed the demo shops (seedDemo in tests/e2e/admin-support.ts): they
 * share one shop, so they run one at a time. Every other file makes shops of its own and runs
 * beside them, three files at once (docs/decisions/171-e2e-in-two-workers.md, 173).
 */
const DEMO_FILES = ["merchant-journey.spec.ts", "merchant-words.spec.ts", "root-page.spec.ts", "theme-blocks.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 30_000,
  workers: 3,
  // The demo files first: they run one after another, so started last they would be a tail run
  // by one worker while the other idles.
  projects: [
    { name: "demo-shops", testMatch: DEMO_FILES, workers: 1 },
    { name: "own-shops", testIgnore: DEMO_FILES },
  ],
  reporter: "list",
  use: {
    screenshot: "only-on-failure",
    baseURL: E2E_BASE_URL,
    // Headless Chromium says "HeadlessChrome", which the Shopify library answers with 410 as a bot.
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "node_modules/.bin/tsx tests/e2e/serve.ts",
    url: `${E2E_BASE_URL}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
  },
});

/** The simulator of the e2e run (Shopify admin around the app, and the control API). */
export const E2E_SIMULATOR_URL = `http://127.0.0.1:${PORT + 1}`;

/** The local mailbox of the e2e run (its web page and JSON list; tests/setup/e2e-env.ts). */
export const E2E_MAILBOX_URL = `http://127.0.0.1:${PORT + 3}`;
