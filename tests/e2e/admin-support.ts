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

/** The demo shops (prisma/seed.ts) on this e2e run's stack: seeded by the first test file that asks, once per run. */
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

/**
 * Rewrites the JSON field `field` of the app's next form POST to a URL containing `path` (once):
 * what a forged or stale post would carry, e.g. a variant id of another shop that the resource
 * picker never offers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function forgeNextPost(page: Page, path: string, field: string, change: (value: any) => void): Promise<void> {
  // Once: later requests pass untouched (unrouting from inside the handler would wait for itself).
  let forged = false;
  await page.route(
    (url) => url.pathname.includes(path),
    async (route) => {
      if (forged || route.request().method() !== "POST") return route.fallback();
      forged = true;
      const body = new URLSearchParams(route.request().postData() ?? "");
      const value = JSON.parse(body.get(field) ?? "null");
      change(value);
      body.set(field, JSON.stringify(value));
      await route.continue({ postData: body.toString() });
    },
  );
}

/** A variant id of a product on another shop of the simulator. */
export async function otherShopsVariant(request: APIRequestContext): Promise<string> {
  const other = await newShop(request, "e2e-other");
  const p = await simCall<{ variants: { id: string }[] }>(request, "POST", `/shops/${other}/products`, {
    title: "Elsewhere",
    variants: [{ title: "Theirs", price: "1.00" }],
  });
  return p.variants[0].id;
}

export interface SnackBoxShop {
  shop: string;
  /** Crisps, Nuts, Figs. */
  variants: string[];
  group: { id: string; sellingPlans: { id: string }[] };
}

/**
 * A box shop (the Bundles tests and the boxes journey): the Snacks product (Crisps, Nuts, Figs), a
 * monthly "Snack box plan" the app mirrors, the app opened on the Pro plan.
 */
export async function snackBoxShop(page: Page, request: APIRequestContext, name: string): Promise<SnackBoxShop> {
  const shop = await newShop(request, name);
  const snacks = await simCall<{ variants: { id: string }[] }>(request, "POST", `/shops/${encodeURIComponent(shop)}/products`, {
    title: "Snacks",
    variants: [
      { title: "Crisps", price: "3.00" },
      { title: "Nuts", price: "4.50" },
      { title: "Figs", price: "5.00" },
    ],
  });
  const variants = snacks.variants.map((v) => v.id);
  const group = await simCall<SnackBoxShop["group"]>(request, "POST", `/shops/${encodeURIComponent(shop)}/selling-plan-groups`, {
    name: "Snack box plan",
    plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
    variantIds: [variants[0]],
  });
  await openApp(page, shop);
  cli("shops", "plan", "--shop", shop, "--plan", "pro");
  seed("box-plan", shop, group.id, group.sellingPlans[0].id, "Snack box plan");
  return { shop, variants, group };
}

/** Fills the Create bundle form: a build-a-box bundle "Snack box" on the Snack box plan, one fixed size. */
export async function fillBoxBundle(app: FrameLocator, b: { size: string; price: string; items: number; cutoffDays: number }): Promise<void> {
  await expect(app.locator("h1")).toHaveText("Create bundle");
  await app.getByLabel("Title").fill("Snack box");
  await app.getByLabel("Plan").selectOption({ label: "Snack box plan" });
  await app.getByLabel("Size 1 name").fill(b.size);
  await app.getByLabel("Size 1 price").fill(b.price);
  await app.getByLabel("Size 1 items").fill(String(b.items));
  await app.getByLabel("Selection cutoff (days before the charge)").fill(String(b.cutoffDays));
}

/** Opens the menu's resource picker and selects every Snacks variant. */
export async function pickSnacks(page: Page, app: FrameLocator): Promise<void> {
  await app.getByRole("button", { name: "Select products" }).click();
  const picker = page.getByRole("dialog", { name: "Select products" });
  await picker.getByRole("checkbox", { name: "Snacks", exact: true }).check();
  await picker.getByRole("button", { name: "Select" }).click();
  await expect(app.getByRole("heading", { name: "Snacks – Figs" })).toBeVisible();
}
