// No merchant-facing text shows an error code, an API path, a gid or a validator's message
// (README, "Tests"). Every embedded admin page is visited: the list is read from
// app/routes/app.*.tsx, so a new page is covered without touching this file, and a page with a
// parameter is reached by the first link to it on its parent page, on the seeded demo shop (a
// page no link reaches fails here: give the demo data for it). Then a refusal of each form that
// has a practical one. The visible text of the app's frame and of the admin around it is checked.
import { readdirSync } from "node:fs";
import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { ERROR_DOCS } from "../../app/http/error-docs";
import { APP, DEMO_SHOP, openApp, seedDemo } from "./admin-support";

test.beforeAll(() => {
  test.setTimeout(240_000);
  seedDemo();
});

/** What a merchant must never read: each with the reason a failure names. */
const INTERNAL: [RegExp, string][] = [
  [/gid:\/\//, "a gid"],
  [/\/api\//, "an API path"],
  [new RegExp(`\\b(${[...Object.keys(ERROR_DOCS), "plan_upgrade_required", "not_found", "validation_failed"].join("|")})\\b`), "an error code"],
  [/\bExpected\b|\breceived\b|Invalid enum|Invalid input|\bNaN\b/, "a validator's message"],
  [/mirrored/i, "an internal word"],
];

/** The internal words visible on the page (the app's frame and Shopify admin around it), one line each. */
async function internalWords(page: Page): Promise<string[]> {
  const frame = page.frames().find((f) => f.url().startsWith(APP));
  const texts = [await page.locator("body").innerText(), frame ? await frame.locator("body").innerText() : ""];
  const found: string[] = [];
  for (const line of texts.join("\n").split("\n")) {
    for (const [re, what] of INTERNAL) if (re.test(line)) found.push(`${what}: ${line.trim().slice(0, 200)}`);
  }
  return found;
}

async function expectMerchantWords(page: Page, where: string) {
  expect(await internalWords(page), `internal words on ${where}`).toEqual([]);
}

/** app.bundles.$id_.menus.$period.tsx -> ["bundles", "$id", "menus", "$period"] (Remix's flat routes). */
function segmentsOf(file: string): string[] {
  return file
    .replace(/^app\./, "")
    .replace(/\.tsx$/, "")
    .split(".")
    .filter((s) => s !== "_index")
    .map((s) => s.replace(/_$/, ""));
}

const PAGES = readdirSync("app/routes")
  .filter((f) => /^app\..+\.tsx$/.test(f))
  .map(segmentsOf)
  .sort((a, b) => a.length - b.length);

/** Whether a path is one of the pages (a parameter matches any one segment). */
const isPage = (path: string) =>
  PAGES.some((segments) => new RegExp(`^/app${segments.map((s) => (s.startsWith("$") ? "/[^/]+" : `/${s}`)).join("")}$`).test(path));

/** The address of a page: each parameter from the first link to it on the nearest page above it. */
async function addressOf(page: Page, app: FrameLocator, segments: string[]): Promise<string> {
  const at = segments.findIndex((s) => s.startsWith("$"));
  if (at < 0) return `/app${segments.map((s) => `/${s}`).join("")}`;
  const base = `/app${segments
    .slice(0, at)
    .map((s) => `/${s}`)
    .join("")}`;
  let parent = base;
  while (!isPage(parent)) parent = parent.slice(0, parent.lastIndexOf("/"));
  await openApp(page, DEMO_SHOP, parent);
  const pattern = new RegExp(`^${base}/([^/?#]+)${at === segments.length - 1 ? "$" : "(/|$)"}`);
  const hrefs = await app.locator("a[href]").evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  const hit = hrefs.find((h) => pattern.test(h) && !/\/new$/.test(h));
  expect(hit, `a link from ${parent} to a ${segments.join("/")} page (seed the demo with one)`).toBeTruthy();
  return addressOf(
    page,
    app,
    segments.map((s, i) => (i === at ? pattern.exec(hit!)![1] : s)),
  );
}

test("every embedded admin page of the demo shop speaks the merchant's words", async ({ page }) => {
  test.setTimeout(300_000);
  const app = page.frameLocator("iframe#app-iframe");
  expect(PAGES.length, "pages found under app/routes").toBeGreaterThan(20);
  for (const segments of PAGES) {
    const address = await addressOf(page, app, segments);
    await openApp(page, DEMO_SHOP, address);
    await expectMerchantWords(page, address);
  }
});

/** A refusal of a form, as a merchant meets it: what to do, and where. */
const REFUSALS: { page: string; what: string; act: (app: FrameLocator, page: Page) => Promise<void> }[] = [
  {
    page: "/app/billing",
    what: "a retry schedule that is not days",
    act: async (app, page) => {
      await app.getByLabel("Retry after (days)").fill("2, soon");
      await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).click();
      await expect(app.getByText("write whole days separated by commas", { exact: false })).toBeVisible();
    },
  },
  {
    page: "/app/origins",
    what: "an origin that is not a web address",
    act: async (app, page) => {
      await app.getByLabel("Origins, one per line").fill("portal.brand.example");
      await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).click();
      await expect(app.getByText("is not a web address", { exact: false })).toBeVisible();
    },
  },
  {
    page: "/app/subscriptions?amount_min=abc",
    what: "a filter amount that is not an amount",
    act: async (app) => {
      await expect(app.getByText("must be an amount", { exact: false })).toBeVisible();
    },
  },
  {
    page: "/app/subscriptions?next_from=soon",
    what: "a filter date that is not a date",
    act: async (app) => {
      await expect(app.getByText("must be a date", { exact: false })).toBeVisible();
    },
  },
  {
    page: "/app/subscriptions/999999999",
    what: "a subscription that does not exist",
    act: async (app) => {
      await expect(app.locator("h1")).toBeVisible();
    },
  },
];

test("every form's refusal speaks the merchant's words", async ({ page }) => {
  test.setTimeout(180_000);
  for (const r of REFUSALS) {
    const app = await openApp(page, DEMO_SHOP, r.page);
    await r.act(app, page);
    await expectMerchantWords(page, `${r.page} (${r.what})`);
  }
});
