// The schedule previews (/docs#tag/Admin-API:-Plans): GET /api/admin/v1/plans/{id}/schedule and the
// Storefront API's /selling-plans/{id}/schedule, through the real kernel and PostgreSQL. The
// dates themselves are the engine's (tests/unit/schedule/); here: the shop's time zone, the
// query rules and their error envelope, scopes and tenancy.
import { prisma } from "../../../app/db.server";
import { createSurface } from "../../../app/http/kernel.server";
import { STOREFRONT_SURFACE } from "../../../app/surfaces/config";
import { storefrontRoutes } from "../../../app/surfaces/storefront/routes";
import { api, enc } from "../../support/admin-factories";
import { createKey, createPlanGroup, createShop, gid } from "../../support/fixtures";

let clock = Date.now();
const storefront = createSurface(STOREFRONT_SURFACE, storefrontRoutes, { now: () => (clock += 600_000) });

async function sf(key: string, path: string) {
  const res = await storefront.handle(new Request(`http://127.0.0.1${STOREFRONT_SURFACE.basePath}${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  return { status: res.status, json: await res.json() };
}

const anchored15 = {
  scheduleMode: "ANCHORED" as const,
  anchorDay: 15,
  anchorMonths: [],
  cutoffDays: 3,
  preAnchorBehavior: "NEXT" as const,
  shipDay: 18,
  scheduleLabel: "Charged on the 15th, ships on the 18th",
};

async function setup(timeZone = "America/New_York") {
  const shop = await createShop();
  await prisma.shop.update({ where: { id: shop.id }, data: { ianaTimezone: timeZone } });
  const plan = gid("SellingPlan");
  const group = await createPlanGroup(shop.id, { ...anchored15, sellingPlanGids: [plan] });
  const key = (await createKey({ shopId: shop.id, scopes: ["read:plans"] })).key;
  const pk = (await createKey({ shopId: shop.id, scopes: ["read:plans"], kind: "PUBLISHABLE" })).key;
  return { shop, group, plan, key, pk };
}

describe("GET /plans/{id}/schedule", () => {
  it("answers the NEXT rule with the cutoff, the ship day and six charges in the shop's zone", async () => {
    const { group, key } = await setup();
    const r = await api(key, "GET", `/plans/${enc(group.groupGid)}/schedule?start=2026-12-13`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      selling_plan_group_id: group.groupGid,
      time_zone: "America/New_York",
      start: "2026-12-13",
      schedule: {
        mode: "anchored",
        anchor_day: 15,
        anchor_months: [],
        cutoff_days: 3,
        pre_anchor_behavior: "NEXT",
        ship_day: 18,
        label: anchored15.scheduleLabel,
      },
      first_charge: "2027-01-15",
      first_shipment: "2027-01-18",
      charges: ["01", "02", "03", "04", "05", "06"].map((m) => ({ charge_date: `2027-${m}-15`, ship_date: `2027-${m}-18` })),
    });
  });

  it("starts from today on the shop's calendar when start is absent, and honours count", async () => {
    const { group, key } = await setup("Pacific/Kiritimati");
    const r = await api(key, "GET", `/plans/${enc(group.groupGid)}/schedule?count=2`);
    expect(r.status).toBe(200);
    // UTC+14: the shop's today is never behind UTC's.
    const kiritimati = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date());
    expect(r.json.start).toBe(kiritimati);
    expect(r.json.charges).toHaveLength(2);
  });

  it("previews a rolling plan from its cadence", async () => {
    const shop = await createShop();
    const group = await createPlanGroup(shop.id, { interval: "WEEK", intervalCount: 2 });
    const key = (await createKey({ shopId: shop.id, scopes: ["read:plans"] })).key;
    const r = await api(key, "GET", `/plans/${enc(group.groupGid)}/schedule?start=2026-12-28&count=3`);
    expect(r.json.schedule).toEqual({ mode: "rolling" });
    expect(r.json.charges.map((c: { charge_date: string }) => c.charge_date)).toEqual(["2026-12-28", "2027-01-11", "2027-01-25"]);
  });

  it.each([
    ["start=2026-02-30", 'start "2026-02-30"'],
    ["start=tomorrow", 'start "tomorrow"'],
    ["count=0", 'count "0"'],
    ["count=25", 'count "25"'],
    ["count=2.5", 'count "2.5"'],
    ["when=1", "when"],
  ])("refuses %s with 400 invalid_request naming it", async (query, named) => {
    const { group, key } = await setup();
    const r = await api(key, "GET", `/plans/${enc(group.groupGid)}/schedule?${query}`);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe("invalid_request");
    expect(r.error?.message).toContain(named);
  });

  it("needs read:plans, refuses a malformed id, and never shows another shop's plan", async () => {
    const { group } = await setup();
    const other = await createShop();
    const otherKey = (await createKey({ shopId: other.id, scopes: ["read:plans"] })).key;
    expect((await api(otherKey, "GET", `/plans/${enc(group.groupGid)}/schedule`)).error?.code).toBe("not_found");
    const noScope = (await createKey({ shopId: other.id, scopes: ["read:subscriptions"] })).key;
    expect((await api(noScope, "GET", `/plans/${enc(group.groupGid)}/schedule`)).error?.code).toBe("insufficient_scope");
    const bad = await api(otherKey, "GET", `/plans/${enc("gid://shopify/Product/1")}/schedule`);
    // A path id of the wrong shape names no resource: 404 like every path parameter.
    expect([bad.status, bad.error?.code]).toEqual([404, "not_found"]);
  });
});

describe("GET /api/storefront/v1/selling-plans/{id}/schedule", () => {
  it("answers the child plan's group, by gid or by the number a cart line carries", async () => {
    const { group, plan, pk } = await setup();
    const byGid = await sf(pk, `/selling-plans/${enc(plan)}/schedule?start=2026-11-27&count=1`);
    expect(byGid.status).toBe(200);
    expect(byGid.json).toMatchObject({ selling_plan_group_id: group.groupGid, first_charge: "2026-12-15", first_shipment: "2026-12-18" });
    const byNumber = await sf(pk, `/selling-plans/${plan.split("/").pop()}/schedule?start=2026-11-27&count=1`);
    expect(byNumber.json).toEqual(byGid.json);
  });

  it("is not_found for another shop's plan and invalid_request for a bad start", async () => {
    const { plan } = await setup();
    const other = await setup();
    expect((await sf(other.pk, `/selling-plans/${enc(plan)}/schedule`)).json.error.code).toBe("not_found");
    const bad = await sf(other.pk, `/selling-plans/${enc(other.plan)}/schedule?start=2026-13-01`);
    expect([bad.status, bad.json.error.code]).toEqual([400, "invalid_request"]);
  });
});
