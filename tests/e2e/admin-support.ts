// Shared by the embedded-admin browser tests: a shop on the simulator, the app opened inside
// the simulated Shopify admin, and the checks every page must pass (no console errors, no
// serious or critical axe-core violations, no horizontal overflow at 375 px).
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type FrameLocator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { e2eEnv as demoSeedEnv } from "../setup/e2e-env";
import { E2E_BASE_URL as APP, E2E_SIMULATOR_URL as SIM } from "../../playwright.config";
import { PG_BASE, REDIS_URL, redisPrefix, workerDb } from "../setup/workers";

export { APP, SIM };
export const API_KEY = "dev-api-key";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function simCall<T = any>(request: APIRequestContext, method: "GET" | "POST" | "PATCH", path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`${SIM}/_sim${path}`, { method, data });
  if (!res.ok()) throw new Error(`${method} /_sim${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A fresh shop installed on the simulator (the app installs it on first open, by token exchange). */
export async function newShop(request: APIRequestContext, name: string, opts: Record<string, unknown> = {}): Promise<string> {
  const shop = `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.myshopify.com`;
  await simCall(request, "POST", "/shops", { shop, ...opts });
  return shop;
}

/**
 * Collects console errors and page errors from the admin page and the app's frame; call
 * `expectNone()` at the end of a test.
 */
export function watchConsole(page: Page) {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    errors.push(`${m.location().url}: ${m.text()}`);
    process.stdout.write(`[browser console error] ${errors[errors.length - 1]}\n`); // seen even when a later step fails first
  });
  page.on("pageerror", (e) => {
    errors.push(`pageerror: ${e.message}`);
    process.stdout.write(`[browser page error] ${e.stack ?? e.message}\n`);
  });
  return { errors, expectNone: () => expect(errors, "console errors").toEqual([]) };
}

/** Opens the app in the simulated admin, at `appPath` (admin's deep link), and waits for its h1. */
export async function openApp(page: Page, shop: string, appPath = "/app"): Promise<FrameLocator> {
  await page.goto(appPath === "/app" ? `${SIM}/admin/${shop}` : `${SIM}/admin/${shop}/apps/${API_KEY}${appPath}`);
  const app = page.frameLocator("iframe#app-iframe");
  await expect(app.locator("h1").first()).toBeVisible({ timeout: 20_000 });
  return app;
}

/** The sidebar that the simulated admin renders from the app's <ui-nav-menu>. */
export const adminNav = (page: Page) => page.getByRole("navigation", { name: "Subscriptions Service" });

/** Clicks a menu entry (opening the menu first at phone widths). */
export async function navigate(page: Page, label: string): Promise<void> {
  const toggle = page.getByRole("button", { name: "Menu" });
  if (await toggle.isVisible()) await toggle.click();
  await adminNav(page).getByRole("link", { name: label, exact: true }).click();
}

/** axe-core over the admin page and the app's frame: no serious or critical violations. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) })),
    "serious/critical axe violations",
  ).toEqual([]);
}

/** At phone width the app's document must not scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const frame = page.frames().find((f) => f.url().startsWith(APP));
  expect(frame, "the app's frame").toBeTruthy();
  const overflow = await frame!.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "horizontal overflow in px").toBeLessThanOrEqual(0);
}

// The e2e run's database, Redis prefix, simulator and app (tests/e2e/serve.ts), for scripts run beside it.
const e2eEnv = () => ({
  ...process.env,
  DATABASE_URL: `${PG_BASE}/${workerDb("e2e")}`,
  REDIS_URL,
  REDIS_PREFIX: redisPrefix("e2e"),
  SHOPIFY_APP_URL: APP,
  SHOPIFY_SIMULATOR_URL: SIM,
});

/** The operator CLI against the e2e run (support overrides such as `shops plan`, `mirror reconcile`). */
export function cli(...args: string[]): string {
  return execFileSync("node_modules/.bin/tsx", ["scripts/cli.ts", ...args], { env: e2eEnv(), encoding: "utf8" });
}

/** A fixture script from tests/e2e/fixtures/seed-<name>.ts, written through Prisma into the e2e database; answers what it printed. */
export function seed(name: string, ...args: string[]): string {
  return execFileSync("node_modules/.bin/tsx", [`tests/e2e/fixtures/seed-${name}.ts`, ...args], { env: e2eEnv(), encoding: "utf8" });
}

/** The demo shops (prisma/seed.ts) on this e2e run's stack: seeded by the first spec that asks, once per run. */
export const DEMO_SHOP = "demo-shop.myshopify.com";
export function seedDemo(): void {
  // tests/e2e/serve.ts clears .data/e2e when the stack starts, so the mark lives exactly as long as the stack.
  const mark = ".data/e2e/demo-seeded";
  if (existsSync(mark)) return;
  execFileSync("node_modules/.bin/tsx", ["prisma/seed.ts"], { env: demoSeedEnv(), stdio: "inherit" });
  mkdirSync(".data/e2e", { recursive: true });
  writeFileSync(mark, new Date().toISOString());
}

/** Calls the app's Admin API with a key. */
export async function adminApi(
  request: APIRequestContext,
  key: string,
  path: string,
  init: { method?: string; data?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await request.fetch(`${APP}/api/admin/v1${path}`, {
    method: init.method ?? "GET",
    data: init.data,
    headers: { Authorization: `Bearer ${key}`, ...init.headers },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status(), body: (await res.json().catch(() => null)) as any };
}
