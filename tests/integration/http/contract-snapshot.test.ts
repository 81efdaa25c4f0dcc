// The HTTP contract pinned: the OpenAPI document, the two reference pages and a recorded set of
// answers of the three surfaces (status, headers, body) over real HTTP against the built app, the
// platform simulator and the demo data. A change meant to leave behaviour alone (decision 100: the
// read side moved its query parsing from the domain to the surface) must leave all of it
// byte-for-byte as it was. What varies from run to run is replaced by placeholders numbered by
// first appearance, so equal values stay visibly equal: row ids, timestamps and dates (the demo
// data is dated from today), list cursors, request ids, random shop domains and order names; the Date and
// X-Service-Request-Id headers are left out.
//
// Removing or renaming a response field is caught separately by the grow-only field list of
// tests/unit/http/v1-fields.test.ts (docs/decisions/124-contract-tests-pin-literal-values.md).
// A change that means to alter the contract records anew and shows the difference in review:
//   RECORD_CONTRACT=1 TEST_PORT_BASE=... npx vitest run tests/integration/http/contract-snapshot.test.ts
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { mintKey, PUBLISHED_SCOPES } from "../../../app/domain/keys/keys.server";
import { Redis } from "ioredis";
import { errorsHtml, openApiDocument, referenceHtml } from "../../../app/surfaces/docs.server";
import { seedDemo } from "../../../prisma/seed";
import { startStack, type Stack } from "../../support/stack";
import { customerToken, seedCustomerShop } from "../../support/customer-factories";

const DIR = path.join("tests", "fixtures", "contract");
const RECORD = process.env.RECORD_CONTRACT === "1";
const DEMO = "demo-shop.myshopify.com";
const enc = encodeURIComponent;

let stack: Stack;
let buckets: Redis;
beforeAll(async () => {
  buckets = new Redis(env().REDIS_URL);
  stack = await startStack({ workers: false });
  await seedDemo();
}, 240_000);
afterAll(async () => {
  await stack?.close();
  buckets?.disconnect();
});

/** Compares with the recorded file, or records it (RECORD_CONTRACT=1). */
function pinned(name: string, actual: string) {
  const file = path.join(DIR, name);
  if (RECORD || !existsSync(file)) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(file, actual);
    if (!RECORD) throw new Error(`${file} was missing and has been recorded: run again`);
    return;
  }
  const expected = readFileSync(file, "utf8");
  if (actual === expected) return;
  mkdirSync("test-results", { recursive: true });
  writeFileSync(path.join("test-results", `contract-${name}`), actual);
  // Name the first differing answer, not a 300 kB diff.
  const a = actual.split("\n");
  const e = expected.split("\n");
  const at = a.findIndex((line, i) => line !== e[i]);
  expect({ line: at + 1, actual: a.slice(at, at + 3).join("\n") }, `${file} differs`).toEqual({ line: at + 1, actual: e.slice(at, at + 3).join("\n") });
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** Placeholders numbered by first appearance within one answer. */
function normalise(text: string, seen = new Map<string, string>()): string {
  const mark = (kind: string) => (value: string) => {
    const key = `${kind}:${value}`;
    if (!seen.has(key)) seen.set(key, `<${kind}${[...seen.keys()].filter((k) => k.startsWith(`${kind}:`)).length + 1}>`);
    return seen.get(key)!;
  };
  return text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "<app-url>")
    .replace(/("next_cursor":")([^"]+)"/g, (_, head: string, c: string) => `${head}${mark("cursor")(c)}"`)
    .replace(/("order_name":")(#\d+)"/g, (_, head: string, o: string) => `${head}${mark("order")(o)}"`)
    .replace(/(cursor=)([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/g, (_, head: string, c: string) => `${head}${mark("cursor")(c)}`)
    .replace(/\breq_[A-Za-z0-9_-]+/g, "<request-id>")
    .replace(/\bt-[0-9a-f-]{8,36}\.myshopify\.com/g, mark("shop"))
    .replace(/\bc[a-z0-9]{24}\b/g, mark("id"))
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, mark("uuid"))
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g, mark("ts"))
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, mark("date"))
    .replace(/\b\d{4}-\d{2}\b/g, mark("month"));
}

interface Call {
  label?: string;
  method?: "GET" | "HEAD" | "OPTIONS";
  path: string;
  headers?: Record<string, string>;
}

const answers: string[] = [];

/** One request; its answer is appended to the record. Returns the parsed body (for follow-ups). */
async function record(call: Call): Promise<unknown> {
  // Every answer starts from a full rate bucket, so RateLimit headers are the same every run.
  const prefix = env().REDIS_PREFIX;
  const keys = await buckets.keys(`${prefix}:rl:*`);
  if (keys.length) await buckets.del(...keys);
  const res = await fetch(`${stack.appUrl}${call.path}`, { method: call.method ?? "GET", headers: call.headers });
  const text = await res.text();
  // A length is pinned by the body it measures (a random order name changes it by a digit).
  const headers = [...res.headers.entries()]
    .filter(([k]) => !["date", "x-service-request-id", "keep-alive", "connection"].includes(k))
    .map(([k, v]) => `${k}: ${k === "content-length" && Number(v) === Buffer.byteLength(text) ? "<length of the body>" : v}`)
    .sort();
  const seen = new Map<string, string>();
  const head = normalise([`### ${call.label ?? ""}${call.method ?? "GET"} ${call.path}`, `${res.status}`, ...headers, ""].join("\n"), seen);
  // The analytics figures count demo rows dated from now, so they move with the clock (a contract
  // crosses a cohort's month boundary): their answers are pinned by shape, numbers left out.
  const timeBound = res.status === 200 && call.path.includes("/analytics/");
  const body = normalise(timeBound ? text.replace(/(?<=[:[,])-?\d+(?:\.\d+)?(?=[,\]}])/g, "<n>") : text, seen);
  const shown = body.length > 100_000 ? `<${body.length} characters, sha256 ${sha(body)}>` : body;
  answers.push(`${head}${shown}\n`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

describe("the HTTP contract is what was recorded", () => {
  it("the OpenAPI document and the reference pages", () => {
    // The app's own address (this Vitest worker's port) is the one value that varies.
    const here = (text: string) => text.replace(/http:\/\/127\.0\.0\.1:\d+/g, "<app-url>");
    pinned("openapi.json", here(`${JSON.stringify(openApiDocument(), null, 2)}\n`));
    pinned("pages.txt", `/docs sha256 ${sha(here(referenceHtml()))}\n/docs/api/errors sha256 ${sha(here(errorsHtml()))}\n`);
  });

  it("a broad set of Admin, Storefront and Customer API answers, errors included", async () => {
    const shopId = (await prisma.shop.findUniqueOrThrow({ where: { domain: DEMO } })).id;
    const reads = PUBLISHED_SCOPES.filter((s) => s.startsWith("read:"));
    const all = { Authorization: `Bearer ${(await mintKey({ shopId, name: "contract", scopes: reads, kind: "SECRET" })).key}` };
    const narrow = {
      Authorization: `Bearer ${(await mintKey({ shopId, name: "contract narrow", scopes: reads.filter((s) => s !== "read:customers"), kind: "SECRET" })).key}`,
    };
    const plansOnly = { Authorization: `Bearer ${(await mintKey({ shopId, name: "contract plans", scopes: ["read:plans"], kind: "SECRET" })).key}` };
    const A = "/api/admin/v1";

    const contract = await prisma.contract.findFirstOrThrow({ where: { shopId, lines: { some: {} } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const group = await prisma.sellingPlanGroup.findFirstOrThrow({ where: { shopId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const bundle = await prisma.bundle.findFirstOrThrow({ where: { shopId, boxes: { some: {} } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const box = await prisma.bundleBox.findFirstOrThrow({ where: { bundleId: bundle.id }, orderBy: [{ period: "asc" }] });
    const mixMatch = await prisma.mixMatchPlan.findFirstOrThrow({ where: { shopId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const campaign = await prisma.winbackCampaign.findFirstOrThrow({ where: { shopId, sends: { some: {} } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const customerGid = contract.customerGid;

    // Each list: its first page, a small page and the page after it, the paging refusals.
    const lists: Array<[string, string[]]> = [
      [
        "/subscriptions",
        [
          "status=active",
          "status=ACTIVE",
          "status=Paused",
          "status=cancelled",
          "status=EXPIRED",
          "status=bogus",
          "status=",
          `plan_id=${enc(group.groupGid)}`,
          "plan_id=gid://shopify/SellingPlan/1",
          "plan_id=123",
          `customer_id=${enc(customerGid)}`,
          "customer_id=123",
          "customer_id=gid://shopify/Customer/abc",
          "updated_after=2020-01-01",
          "updated_after=2020-01-01T00:00:00Z",
          "updated_after=2020-01-01T00:00:00",
          "updated_after=2020-01-01 00:00:00+02:00",
          "updated_after=2020-01-01T00:00:00.123456789-05:30",
          "updated_after=2025-02-30",
          "updated_after=2025-13-01",
          "updated_after=2020-01-01T24:00:00Z",
          "updated_after=yesterday",
          "updated_after=2999-01-01T00:00:00Z",
          "updated_after=",
          "status=active&customer_id=bad",
          "status=bad&customer_id=bad",
          "status=bad&cursor=bad",
          "status=bad&unknown=1",
          "product=coffee",
        ],
      ],
      ["/plans", ["status=active", "status=ARCHIVED", "status=archived", "status=bogus", "status="]],
      ["/bundles", ["status=active"]],
      ["/mix-match", []],
      ["/gifts", ["status=pending", "status=SENT", "status=claimed", "status=expired", "status=ended", "status=bogus", "status="]],
      ["/winback/campaigns", []],
      [`/winback/campaigns/${enc(campaign.id)}/sends`, []],
      [
        "/notifications",
        [
          "event=renewal_reminder",
          "event=RENEWAL_REMINDER",
          "event=no_such_event",
          "event=",
          "status=queued",
          "status=sent",
          "status=Delivered",
          "status=bounced",
          "status=failed",
          "status=bogus",
          `customer_id=${enc(customerGid)}`,
          "customer_id=42",
          "event=bad&status=bad",
          "event=renewal_reminder&status=bogus&customer_id=x",
        ],
      ],
      ["/exports", []],
      ["/webhooks/endpoints", []],
      ["/webhooks/deliveries", []],
    ];
    for (const [list, filters] of lists) {
      const first = (await record({ path: `${A}${list}`, headers: all })) as { next_cursor?: string | null };
      const small = (await record({ path: `${A}${list}?limit=2`, headers: all })) as { next_cursor?: string | null };
      if (small?.next_cursor) {
        await record({ path: `${A}${list}?limit=2&cursor=${enc(small.next_cursor)}`, headers: all });
        await record({ label: "cursor on another list: ", path: `${A}/plans?limit=2&cursor=${enc(small.next_cursor)}`, headers: all });
      }
      void first;
      for (const q of ["limit=0", "limit=-1", "limit=abc", "limit=1000", "limit=2.5", "limit=", "cursor=garbage", "cursor=", "unknown=1", "LIMIT=2"]) {
        await record({ path: `${A}${list}?${q}`, headers: all });
      }
      for (const q of filters) await record({ path: `${A}${list}?${q}`, headers: all });
      for (const q of filters.slice(0, 2)) {
        const page = (await record({ path: `${A}${list}?${q}&limit=1`, headers: all })) as { next_cursor?: string | null };
        if (page?.next_cursor)
          await record({ label: "cursor with other filters: ", path: `${A}${list}?limit=1&cursor=${enc(page.next_cursor)}`, headers: all });
      }
    }

    const c = `${A}/subscriptions/${enc(contract.contractGid)}`;
    for (const call of [
      { path: c, headers: all },
      { path: c, headers: narrow },
      { path: `${c}?x=1`, headers: all },
      { path: `${A}/subscriptions/${enc("gid://shopify/SubscriptionContract/999999")}`, headers: all },
      { path: `${A}/subscriptions/not-a-gid`, headers: all },
      { path: `${A}/subscriptions/123`, headers: all },
      { path: `${A}/gifts`, headers: narrow },
      { path: `${A}/subscriptions`, headers: plansOnly },
      { path: `${A}/plans?status=bogus`, headers: plansOnly },
      { path: `${A}/subscriptions`, headers: {} },
      { path: `${A}/subscriptions`, headers: { Authorization: "Bearer sk_live_nope" } },
      { method: "HEAD" as const, path: `${A}/subscriptions`, headers: all },
      { method: "HEAD" as const, path: `${A}/subscriptions?status=bogus`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?period=${box.period}`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?period=2001-01`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?period=2025-13`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?period=2025-1`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?period=bogus`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?period=`, headers: all },
      { path: `${A}/bundles/${enc(bundle.id)}/boxes?limit=1`, headers: all },
      { path: `${A}/bundles/nope/boxes`, headers: all },
      { path: `${A}/mix-match/${enc(mixMatch.id)}`, headers: all },
      { path: `${A}/mix-match/${enc(mixMatch.id)}?period=1`, headers: all },
      { path: `${A}/mix-match/nope`, headers: all },
      { path: `${A}/winback/campaigns/nope/sends`, headers: all },
      { path: `${A}/analytics/mrr`, headers: all },
      { path: `${A}/analytics/mrr?range=7d`, headers: all },
      ...["", "7d", "30d", "90d", "12mo", "12MO", "7D", "1y", "30"].flatMap((r) => [
        { path: `${A}/analytics/churn${r ? `?range=${r}` : ""}`, headers: all },
        { path: `${A}/analytics/recovery${r ? `?range=${r}` : ""}`, headers: all },
      ]),
      { path: `${A}/analytics/cancellations`, headers: all },
      { path: `${A}/analytics/cancellations?range=12mo`, headers: all },
      { path: `${A}/analytics/cancellations?range=1y`, headers: all },
      // Not /analytics/trends: its past months are read at today's month boundaries, so the
      // seeded demo's figures move with the clock (its shape: response-schemas.test.ts).
      { path: `${A}/analytics/churn?range=`, headers: all },
      { path: `${A}/analytics/churn?window=12`, headers: all },
      ...["", "12", "24", "all", "ALL", "13", "bogus"].map((w) => ({ path: `${A}/analytics/cohorts${w ? `?window=${w}` : ""}`, headers: all })),
      { path: `${A}/analytics/cohorts?window=`, headers: all },
      { path: `${A}/exports/datasets`, headers: all },
      { path: `${A}/webhooks/events`, headers: all },
      { path: `${A}/nowhere`, headers: all },
      { method: "OPTIONS" as const, path: `${A}/subscriptions`, headers: all },
      { path: "/docs/openapi.json", headers: {} },
    ]) {
      await record(call);
    }

    // Storefront API (a publishable key, CORS) and Customer API (a session).
    const pk = {
      Authorization: `Bearer ${(await mintKey({ shopId, name: "contract pk", scopes: ["read:plans", "read:bundles", "read:mixmatch"], kind: "PUBLISHABLE" })).key}`,
    };
    const S = "/api/storefront/v1";
    const metafield = await prisma.storefrontMetafield.findFirstOrThrow({ where: { shopId }, orderBy: [{ ownerGid: "asc" }] });
    const mm = await prisma.mixMatchPlan.findUniqueOrThrow({ where: { id: mixMatch.id }, include: { categories: { include: { entries: true } } } });
    const entries = mm.categories.flatMap((cat) => cat.entries).sort((x, y) => x.variantGid.localeCompare(y.variantGid));
    const picks = entries.slice(0, mm.minItems).map((e) => enc(e.variantGid));
    const storefrontCalls: Call[] = [
      { path: `${S}/products/${enc(metafield.ownerGid)}/plans`, headers: pk },
      { path: `${S}/products/${enc(metafield.ownerGid)}/plans`, headers: { ...pk, Origin: "https://demo-shop.myshopify.com" } },
      { path: `${S}/products/${enc(metafield.ownerGid)}/plans?x=1`, headers: pk },
      { path: `${S}/products/${enc("gid://shopify/Product/999999")}/plans`, headers: pk },
      { path: `${S}/products/nope/plans`, headers: pk },
      { path: `${S}/bundles/${enc(bundle.id)}`, headers: pk },
      { path: `${S}/bundles/nope`, headers: pk },
      { path: `${S}/mix-match/${enc(mixMatch.id)}`, headers: pk },
      { path: `${S}/mix-match/${enc(mixMatch.id)}/price-preview?variant_ids=${picks.join(",")}`, headers: pk },
      { path: `${S}/mix-match/${enc(mixMatch.id)}/price-preview?variant_ids=${picks.slice(0, 1).join(",")}`, headers: pk },
      { path: `${S}/mix-match/${enc(mixMatch.id)}/price-preview?variant_ids=bogus`, headers: pk },
      { path: `${S}/mix-match/${enc(mixMatch.id)}/price-preview`, headers: pk },
      { path: `${S}/mix-match/${enc(mixMatch.id)}/price-preview?variant_ids=`, headers: pk },
      { path: `${S}/bundles/${enc(bundle.id)}`, headers: all },
      { path: `${S}/bundles/${enc(bundle.id)}`, headers: {} },
      {
        method: "OPTIONS" as const,
        path: `${S}/bundles/${enc(bundle.id)}`,
        headers: { Origin: "https://demo-shop.myshopify.com", "Access-Control-Request-Method": "GET" },
      },
    ];
    for (const call of storefrontCalls) {
      await record(call);
    }

    const cs = await seedCustomerShop(stack.control, stack.installShop);
    const token = await customerToken(stack.control, cs.domain, cs.customers.a);
    const session = await fetch(`${stack.appUrl}/api/customer/v1/session`, {
      method: "POST",
      headers: { Authorization: `Bearer ${cs.publishableKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ customer_access_token: token }),
    });
    const sessionToken = ((await session.json()) as { session_token: string }).session_token;
    const C = "/api/customer/v1";
    const who = { Authorization: `Bearer ${cs.publishableKey}`, "X-Service-Session": sessionToken };
    const a = `${C}/subscriptions/${enc(cs.contracts.a.id)}`;
    for (const call of [
      { path: `${C}/config`, headers: who },
      { path: `${C}/subscriptions`, headers: who },
      { path: `${C}/subscriptions?x=1`, headers: who },
      { path: `${C}/subscriptions/${enc(cs.contracts.aBox.id)}/box`, headers: who },
      { path: `${C}/subscriptions/${enc(cs.contracts.b.id)}/box`, headers: who },
      { path: `${a}/payment-method`, headers: who },
      { path: `${a}/lines/${enc(cs.contracts.a.lines[0].id)}/swap-options`, headers: who },
      { path: `${C}/subscriptions/${enc(cs.contracts.b.id)}/payment-method`, headers: who },
      { path: `${C}/notification-preferences`, headers: who },
      { path: `${C}/notification-activity`, headers: who },
      { path: `${C}/notification-activity?limit=1`, headers: who },
      { path: `${C}/subscriptions`, headers: { Authorization: `Bearer ${cs.publishableKey}` } },
      { path: `${C}/subscriptions`, headers: { Authorization: `Bearer ${cs.publishableKey}`, "X-Service-Session": "nope" } },
    ]) {
      await record(call);
    }

    pinned("answers.txt", answers.join("\n"));
  }, 240_000);
});
