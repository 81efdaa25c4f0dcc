// The audit trail (docs/decisions/125-audit-log.md): a table over the Admin API's write routes,
// each leaving exactly one audit event with the right actor, request id, target, outcome and
// changes, refusals included; a rolled-back change leaves none; staff actors from the admin;
// secrets never recorded; GET /audit-events pages, filters and refuses a key without read:audit.
import { prisma } from "../../../app/db.server";
import { createSurface } from "../../../app/http/kernel.server";
import { idempotencyHook } from "../../../app/http/idempotency.server";
import { ADMIN_SURFACE } from "../../../app/surfaces/config";
import { adminRoutes } from "../../../app/surfaces/admin/routes";
import { withActor } from "../../../app/infra/actor.server";
import { audited } from "../../../app/domain/audit/audit.server";
import { AUDIT_RETENTION_DAYS, pruneAuditEvents } from "../../../app/domain/audit/reads.server";
import { mintKey, revokeKey } from "../../../app/domain/keys/keys.server";
import { saveBillingPolicy } from "../../../app/domain/renewals/policy.server";
import { saveTemplate } from "../../../app/domain/notifications/templates.server";
import type { RunningSimulator } from "../../../simulator/server";
import { enc } from "../../support/admin-factories";
import { seedContract, seedWriteShop, startTestSimulator } from "../../support/admin-sim";
import { createKey, createShop, uniq } from "../../support/fixtures";

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startTestSimulator();
});
afterAll(async () => {
  await simulator?.close();
});

let clock = Date.now();
const surface = createSurface(ADMIN_SURFACE, adminRoutes, { idempotency: idempotencyHook, now: () => (clock += 600_000) });

interface Answer {
  status: number;
  json: Record<string, unknown> & { error?: { code: string } };
  requestId: string;
}

async function call(key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, "Idempotency-Key": `k-${uniq()}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await surface.handle(
    new Request(`http://127.0.0.1${ADMIN_SURFACE.basePath}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, requestId: res.headers.get("x-service-request-id")! };
}

const PUBLIC_URL = "https://93.184.215.14/hooks";
const keyIdOf = (key: string) => key.split("_")[2];
const rowsOf = (shopId: string) =>
  prisma.auditEvent.findMany({ where: { shopId, NOT: { action: "api_key.mint" } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

interface Row {
  name: string;
  method: string;
  path: () => string;
  body?: () => unknown;
  status: number;
  action: string;
  target: () => { type: string; id: string };
  outcome: "success" | "failure";
  errorCode?: string;
  changes?: Record<string, unknown>;
  after?: (a: Answer) => void;
}

describe("every Admin API write leaves exactly one audit event", () => {
  it("a table over the write routes: subscriptions, webhook endpoints and exports, refusals included", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const name = `ERP sync ${uniq()}`;
    const key = (await createKey({ shopId: s.shop.id, name, scopes: ["write:subscriptions", "manage:webhooks", "read:subscriptions"] })).key;
    const sub = `/subscriptions/${enc(c.gid)}`;
    const contract = () => ({ type: "subscription", id: c.gid });
    let endpointId = "";
    let exportId = "";
    const when = new Date(Date.now() + 40 * 86_400_000).toISOString();
    const missing = "gid://shopify/SubscriptionContract/999999999";

    const table: Row[] = [
      {
        name: "pause",
        method: "POST",
        path: () => `${sub}/pause`,
        status: 200,
        action: "subscription.pause",
        target: contract,
        outcome: "success",
        changes: { status: { before: "ACTIVE", after: "PAUSED" } },
      },
      {
        name: "pause again (no-op)",
        method: "POST",
        path: () => `${sub}/pause`,
        status: 200,
        action: "subscription.pause",
        target: contract,
        outcome: "success",
        changes: {},
      },
      {
        name: "resume",
        method: "POST",
        path: () => `${sub}/resume`,
        status: 200,
        action: "subscription.resume",
        target: contract,
        outcome: "success",
        changes: { status: { before: "PAUSED", after: "ACTIVE" } },
      },
      { name: "skip", method: "POST", path: () => `${sub}/skip`, status: 200, action: "subscription.skip", target: contract, outcome: "success" },
      {
        name: "reschedule",
        method: "POST",
        path: () => `${sub}/reschedule`,
        body: () => ({ next_billing_at: when }),
        status: 200,
        action: "subscription.reschedule",
        target: contract,
        outcome: "success",
      },
      {
        name: "line edit",
        method: "PATCH",
        path: () => `${sub}/lines/${enc(c.lineGid)}`,
        body: () => ({ quantity: 3 }),
        status: 200,
        action: "subscription.update_line",
        target: contract,
        outcome: "success",
        changes: { quantity: { before: 1, after: 3 } },
      },
      {
        name: "cancel",
        method: "POST",
        path: () => `${sub}/cancel`,
        status: 200,
        action: "subscription.cancel",
        target: contract,
        outcome: "success",
        changes: { status: { before: "ACTIVE", after: "CANCELLED" } },
      },
      {
        name: "cancel a cancelled contract",
        method: "POST",
        path: () => `${sub}/cancel`,
        status: 409,
        action: "subscription.cancel",
        target: contract,
        outcome: "failure",
        errorCode: "state_conflict",
        changes: {},
      },
      {
        name: "pause an unknown contract",
        method: "POST",
        path: () => `/subscriptions/${enc(missing)}/pause`,
        status: 404,
        action: "subscription.pause",
        target: () => ({ type: "subscription", id: missing }),
        outcome: "failure",
        errorCode: "not_found",
      },
      {
        name: "create an endpoint",
        method: "POST",
        path: () => "/webhooks/endpoints",
        body: () => ({ url: PUBLIC_URL, events: ["subscription.paused"] }),
        status: 201,
        action: "webhook_endpoint.create",
        target: () => ({ type: "webhook_endpoint", id: endpointId }),
        outcome: "success",
        changes: { url: { before: null, after: PUBLIC_URL }, events: { before: null, after: ["subscription.paused"] }, enabled: { before: null, after: true } },
        after: (a) => (endpointId = String(a.json.id)),
      },
      {
        name: "create an endpoint on http",
        method: "POST",
        path: () => "/webhooks/endpoints",
        body: () => ({ url: "http://93.184.215.14/x", events: ["subscription.paused"] }),
        status: 400,
        action: "webhook_endpoint.create",
        target: () => ({ type: "webhook_endpoint", id: expect.any(String) as unknown as string }),
        outcome: "failure",
        errorCode: "invalid_request",
        changes: {},
      },
      {
        name: "disable the endpoint",
        method: "PATCH",
        path: () => `/webhooks/endpoints/${endpointId}`,
        body: () => ({ enabled: false }),
        status: 200,
        action: "webhook_endpoint.update",
        target: () => ({ type: "webhook_endpoint", id: endpointId }),
        outcome: "success",
        changes: { enabled: { before: true, after: false }, disabledReason: { before: null, after: "merchant" } },
      },
      {
        name: "delete the endpoint",
        method: "DELETE",
        path: () => `/webhooks/endpoints/${endpointId}`,
        status: 200,
        action: "webhook_endpoint.delete",
        target: () => ({ type: "webhook_endpoint", id: endpointId }),
        outcome: "success",
      },
      {
        name: "delete it again",
        method: "DELETE",
        path: () => `/webhooks/endpoints/${endpointId}`,
        status: 404,
        action: "webhook_endpoint.delete",
        target: () => ({ type: "webhook_endpoint", id: endpointId }),
        outcome: "failure",
        errorCode: "not_found",
      },
      {
        name: "create an export",
        method: "POST",
        path: () => "/exports",
        body: () => ({ dataset: "subscriptions", format: "csv" }),
        status: 202,
        action: "export.create",
        target: () => ({ type: "export", id: exportId }),
        outcome: "success",
        changes: { dataset: { before: null, after: "subscriptions" }, format: { before: null, after: "csv" }, filters: { before: null, after: "{}" } },
        after: (a) => (exportId = String(a.json.id)),
      },
      {
        name: "a second export while one runs",
        method: "POST",
        path: () => "/exports",
        body: () => ({ dataset: "subscriptions" }),
        status: 409,
        action: "export.create",
        target: () => ({ type: "export", id: "new" }),
        outcome: "failure",
        errorCode: "export_in_progress",
      },
    ];

    for (const row of table) {
      const before = (await rowsOf(s.shop.id)).length;
      const answer = await call(key, row.method, row.path(), row.body?.());
      expect(answer.status, `${row.name}: ${JSON.stringify(answer.json)}`).toBe(row.status);
      row.after?.(answer);
      const rows = await rowsOf(s.shop.id);
      expect(rows.length - before, row.name).toBe(1);
      const e = rows[rows.length - 1];
      expect(e, row.name).toMatchObject({
        actorType: "api_key",
        actorId: keyIdOf(key),
        actorName: name,
        requestId: answer.requestId,
        action: row.action,
        targetType: row.target().type,
        targetId: row.target().id,
        outcome: row.outcome,
        errorCode: row.errorCode ?? null,
      });
      if (row.changes) expect(e.changes, row.name).toEqual(row.changes);
      expect(JSON.stringify(e)).not.toMatch(/whsec_|svc_sk_/);
    }
    // skip and reschedule moved the next charge date, and said so
    const moves = (await rowsOf(s.shop.id)).filter((r) => r.action === "subscription.skip" || r.action === "subscription.reschedule");
    for (const m of moves) expect(Object.keys(m.changes as object)).toEqual(["next_billing_at"]);
    expect((moves[1].changes as Record<string, { after: string }>).next_billing_at.after).toBe(when);
  });

  it("a request refused before it reaches the change (scope, malformed body) records nothing; an idempotent replay records nothing more", async () => {
    const s = await seedWriteShop(simulator.url);
    const c = await seedContract(simulator.url, s);
    const reader = (await createKey({ shopId: s.shop.id, name: "reader", scopes: ["read:subscriptions"] })).key;
    const writer = (await createKey({ shopId: s.shop.id, name: "writer", scopes: ["write:subscriptions"] })).key;
    expect((await call(reader, "POST", `/subscriptions/${enc(c.gid)}/pause`)).status).toBe(403);
    expect((await call(writer, "POST", `/subscriptions/${enc(c.gid)}/reschedule`, { next_billing_at: "soon" })).status).toBe(400);
    expect(await rowsOf(s.shop.id)).toHaveLength(0);
    const headers = { Authorization: `Bearer ${writer}`, "Idempotency-Key": "same-key" };
    const url = `http://127.0.0.1${ADMIN_SURFACE.basePath}/subscriptions/${enc(c.gid)}/pause`;
    expect((await surface.handle(new Request(url, { method: "POST", headers }))).status).toBe(200);
    const replay = await surface.handle(new Request(url, { method: "POST", headers }));
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(await rowsOf(s.shop.id)).toHaveLength(1);
  });
});

describe("the change and its audit row commit together", () => {
  it("a rolled-back change leaves no audit event and no change", async () => {
    const shop = await createShop();
    const { id } = await createKey({ shopId: shop.id, name: "victim", scopes: ["read:plans"] });
    await expect(
      audited({ shopId: shop.id, action: "api_key.revoke", target: { type: "api_key", id } }, async (tx) => {
        await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
        throw new Error("connection lost mid-transaction");
      }),
    ).rejects.toThrow("connection lost");
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
    expect(await rowsOf(shop.id)).toHaveLength(0);
  });

  it("an audit row that cannot be written takes the change down with it", async () => {
    const shop = await createShop();
    const { id } = await createKey({ shopId: shop.id, name: "victim", scopes: ["read:plans"] });
    // A shop id that does not exist: the audit insert fails its foreign key inside the change's transaction.
    await expect(revokeKey(id, { shopId: shop.id }).then(() => "ok")).resolves.toBe("ok");
    const other = await createKey({ shopId: shop.id, name: "second", scopes: ["read:plans"] });
    await expect(
      audited({ shopId: "no-such-shop", action: "api_key.revoke", target: { type: "api_key", id: other.id } }, async (tx) => {
        await tx.apiKey.update({ where: { id: other.id }, data: { revokedAt: new Date() } });
        return { result: undefined };
      }),
    ).rejects.toThrow();
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: other.id } })).revokedAt).toBeNull();
  });
});

describe("actors outside the Admin API", () => {
  it("a staff member of the embedded admin mints and revokes a key: staff actor by Shopify user id; the key never recorded", async () => {
    const shop = await createShop();
    const staff = { type: "staff" as const, id: "4242" };
    const minted = await withActor(staff, () => mintKey({ shopId: shop.id, name: "Zapier", scopes: ["read:subscriptions"], kind: "SECRET" }));
    await withActor(staff, () => revokeKey(minted.id, { shopId: shop.id }));
    const refused = withActor(staff, () => mintKey({ shopId: shop.id, name: "", scopes: ["read:subscriptions"], kind: "SECRET" }));
    await expect(refused).rejects.toMatchObject({ code: "invalid_request" });
    const rows = await prisma.auditEvent.findMany({ where: { shopId: shop.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows.map((r) => [r.actorType, r.actorId, r.action, r.targetId, r.outcome])).toEqual([
      ["staff", "4242", "api_key.mint", minted.id, "success"],
      ["staff", "4242", "api_key.revoke", minted.id, "success"],
      ["staff", "4242", "api_key.mint", "new", "failure"],
    ]);
    expect(rows[0].changes).toEqual({
      name: { before: null, after: "Zapier" },
      kind: { before: null, after: "SECRET" },
      scopes: { before: null, after: ["read:subscriptions"] },
    });
    const text = JSON.stringify(rows);
    // The secret is base64url and may itself hold "_": it is everything after the id.
    const secret = minted.key.slice(minted.key.indexOf(minted.id) + minted.id.length + 1);
    expect(secret).toHaveLength(43);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/salt|secretHash/);
  });

  it("settings: a saved billing policy and template record what changed; a refused form records its failure", async () => {
    const shop = await createShop();
    const staff = { type: "staff" as const, id: "7" };
    await withActor(staff, () => saveBillingPolicy(shop.id, { retryDays: [1, 3], finalAction: "PAUSE", reminderDays: 3 }));
    await withActor(staff, () => saveBillingPolicy(shop.id, { retryDays: "nope" }));
    await withActor(staff, () => saveTemplate(shop.id, "subscription_skipped", { subject: "Skipped {{ shop_name }}", body: "Your next charge moved." })).catch(
      () => undefined,
    );
    const rows = await prisma.auditEvent.findMany({ where: { shopId: shop.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows[0]).toMatchObject({ actorType: "staff", actorId: "7", action: "settings.billing_policy", outcome: "success" });
    expect(rows[0].changes).toHaveProperty("retryDays.after", [1, 3]);
    expect(rows[1]).toMatchObject({ action: "settings.billing_policy", outcome: "failure", errorCode: "invalid_request", changes: {} });
    expect(rows[2]).toMatchObject({ actorId: "7", action: "settings.template", targetType: "settings", targetId: "template:subscription_skipped" });
    expect(rows).toHaveLength(3);
  });
});

describe("GET /audit-events", () => {
  async function shopWithEvents() {
    const shop = await createShop();
    const reader = await createKey({ shopId: shop.id, name: "auditor", scopes: ["read:audit"] });
    const staff = { type: "staff" as const, id: "99" };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await withActor(staff, () => mintKey({ shopId: shop.id, name: `k${i}`, scopes: ["read:plans"], kind: "SECRET" }))).id);
    await withActor({ type: "system", id: "uninstall" }, () => revokeKey(ids[0], { shopId: shop.id }));
    return { shop, reader: reader.key, ids };
  }
  type Page = { data: Array<{ id: string; actor: { type: string; id: string }; action: string; target: { id: string } }>; next_cursor: string | null };
  /** One GET /audit-events with `query` (from "?"), as a page. */
  const pageOf = async (key: string, query = "") => (await call(key, "GET", `/audit-events${query}`)).json as unknown as Page;
  /** The error code GET /audit-events answers `query` with. */
  const refusalOf = async (key: string, query: string) => (await call(key, "GET", `/audit-events${query}`)).json.error?.code;

  it("pages newest first with keyset cursors until next_cursor is null", async () => {
    const { reader } = await shopWithEvents();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call(reader, "GET", `/audit-events?limit=2${cursor ? `&cursor=${enc(cursor)}` : ""}`);
      expect(r.status).toBe(200);
      const page = r.json as unknown as Page;
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    // the reader's own mint, five staff mints and a revoke
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(pages).toBe(4);
    const all = await pageOf(reader);
    expect(all.data.map((e) => e.id)).toEqual(seen);
    expect(all.data[0].action).toBe("api_key.revoke");
  });

  it("filters by actor, target and time; refuses unknown values, a foreign cursor and a key without read:audit", async () => {
    const { shop, reader, ids } = await shopWithEvents();
    const byActor = await pageOf(reader, "?actor_type=staff&actor_id=99");
    expect(byActor.data).toHaveLength(5);
    const byTarget = await pageOf(reader, `?target_id=${ids[0]}`);
    expect(byTarget.data.map((e) => e.action)).toEqual(["api_key.revoke", "api_key.mint"]);
    expect(byTarget.data[0].actor).toEqual({ type: "system", id: "uninstall", name: null });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await pageOf(reader, `?created_after=${future}`)).data).toHaveLength(0);
    expect((await pageOf(reader, `?created_before=${future}`)).data).toHaveLength(7);

    expect(await refusalOf(reader, "?actor_type=robot")).toBe("invalid_request");
    expect(await refusalOf(reader, "?created_after=yesterday")).toBe("invalid_request");
    expect(await refusalOf(reader, "?cursor=nope")).toBe("invalid_cursor");
    const paged = await pageOf(reader, "?limit=1");
    expect(await refusalOf(reader, `?limit=1&actor_type=staff&cursor=${enc(paged.next_cursor!)}`)).toBe("invalid_cursor");

    const other = await createKey({ shopId: shop.id, name: "no audit", scopes: ["read:subscriptions"] });
    const refused = await call(other.key, "GET", "/audit-events");
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe("insufficient_scope");
    // tenancy: another shop's reader sees none of these
    const elsewhere = await createShop();
    const theirs = await createKey({ shopId: elsewhere.id, name: "auditor", scopes: ["read:audit"] });
    const theirPage = await pageOf(theirs.key);
    expect(theirPage.data.every((e) => !ids.includes(e.target.id))).toBe(true);
  });

  it(`keeps ${AUDIT_RETENTION_DAYS} days: the daily sweep's prune removes older rows only`, async () => {
    const { shop } = await shopWithEvents();
    const old = await prisma.auditEvent.findFirstOrThrow({ where: { shopId: shop.id, action: "api_key.revoke" } });
    const now = new Date();
    await prisma.auditEvent.update({ where: { id: old.id }, data: { createdAt: new Date(now.getTime() - (AUDIT_RETENTION_DAYS + 1) * 86_400_000) } });
    const kept = await prisma.auditEvent.findFirstOrThrow({ where: { shopId: shop.id, action: "api_key.mint" } });
    await prisma.auditEvent.update({ where: { id: kept.id }, data: { createdAt: new Date(now.getTime() - (AUDIT_RETENTION_DAYS - 1) * 86_400_000) } });
    expect(await pruneAuditEvents(now)).toBeGreaterThanOrEqual(1);
    expect(await prisma.auditEvent.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await prisma.auditEvent.findUnique({ where: { id: kept.id } })).not.toBeNull();
  });
});
