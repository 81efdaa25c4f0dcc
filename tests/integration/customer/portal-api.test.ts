// The Customer API's portal endpoints over real HTTP: the built app, the platform simulator
// through the production GraphQL adapter, real PostgreSQL and Redis. Ownership across customers
// and shops is tests/integration/customer/ownership.test.ts; sessions, CORS and the bucket are
// sessions.test.ts.
import { prisma } from "../../../app/db.server";
import { periodOf } from "../../../app/domain/customer/box.server";
import { eventually, startStack, type Stack } from "../../support/stack";
import { publishMenu, seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { client, enc, simContract, type Json } from "./helpers";

const DAY = 86_400_000;
let stack: Stack;
let s: CustomerShop;
let api: ReturnType<typeof client>;
let sessionA: string;

beforeAll(async () => {
  stack = await startStack({ workers: false });
  s = await seedCustomerShop(stack.control, stack.installShop);
  api = client(stack, () => s);
  sessionA = await api.sessionFor(s.customers.a);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const asA = (method: string, path: string, body?: unknown) => api.call(method, path, { session: sessionA, body });
const c = (gid: string) => `/subscriptions/${enc(gid)}`;
const line = (contract: { id: string; lines: { id: string }[] } | Json) => `${c(contract.id)}/lines/${enc(contract.lines[0].id)}`;
const shopPath = () => stack.control.shop(s.domain);

describe("GET /subscriptions", () => {
  it("lists the session customer's summaries only, every field of the summary, whatever the query says", async () => {
    const res = await asA("GET", `/subscriptions?customer_id=${enc(s.customers.b)}&limit=1`);
    expect(res.status).toBe(200);
    const ids = (res.body.subscriptions as Json[]).map((x) => x.contract_id).sort();
    expect(ids).toEqual([s.contracts.a.id, s.contracts.aBox.id].sort());
    const one = (res.body.subscriptions as Json[]).find((x) => x.contract_id === s.contracts.a.id)!;
    expect(Object.keys(one).sort()).toEqual(
      [
        "charge_amount",
        "contract_id",
        "created_at",
        "currency_code",
        "frequency_label",
        "next_billing_at",
        "order_name",
        "product_title",
        "selling_plan_group_id",
        "selling_plan_id",
        "status",
      ].sort(),
    );
    expect(one).toMatchObject({
      status: "ACTIVE",
      charge_amount: 18,
      currency_code: "USD",
      selling_plan_id: s.groups.coffeePlan,
      selling_plan_group_id: s.groups.coffee,
    });
    expect(one.order_name).toMatch(/^#/);
    expect(new Date(one.next_billing_at).getTime()).toBeGreaterThan(Date.now());
  });
});

describe("build-a-box", () => {
  it("GET .../box describes the bundle, the published menu, no pick yet, and until when editing is open", async () => {
    const res = await asA("GET", `${c(s.contracts.aBox.id)}/box`);
    expect(res.status).toBe(200);
    const box = res.body;
    expect(box).toMatchObject({ contract_id: s.contracts.aBox.id, is_bundle: true, build_a_box: true, editable: true, closed_reason: null, selection: null });
    expect(box.bundle).toMatchObject({ id: s.bundleId, kind: "build_a_box", selection_cutoff_days: 3, box_size_min: 2, box_size_max: 4 });
    expect(box.menu.published).toBe(true);
    expect(box.menu.items.map((i: Json) => i.variant_id)).toEqual(s.variants.menu);
    expect(box.period).toBe(periodOf(new Date(box.next_billing_at)));
    expect(new Date(box.next_billing_at).getTime() - new Date(box.edit_closes_at).getTime()).toBe(3 * DAY);
  });

  it("GET .../box of a contract on a plain plan says it is not a bundle and cannot be edited", async () => {
    const res = await asA("GET", `${c(s.contracts.a.id)}/box`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_bundle: false,
      build_a_box: false,
      bundle: null,
      menu: null,
      selection: null,
      editable: false,
      closed_reason: "not_build_a_box",
    });
  });

  it("POST .../box applies the pick to the contract at once; titles, images and prices come from the menu, not the client", async () => {
    const [cookie, brownie] = s.variants.menu;
    const res = await asA("POST", `${c(s.contracts.aBox.id)}/box`, {
      items: [
        { variant_id: cookie, quantity: 2, product_title: "FREE STUFF", price_cents: 0 },
        { variant_id: brownie, quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ok).toBe(true);
    const sel = res.body.box.selection;
    expect(sel.items).toEqual([
      { variant_id: cookie, quantity: 2, product_title: "Treats", variant_title: "Treat 1", image_url: "https://cdn.example/treat-1.png", price_cents: 300 },
      { variant_id: brownie, quantity: 1, product_title: "Treats", variant_title: "Treat 2", image_url: "https://cdn.example/treat-2.png", price_cents: 350 },
    ]);
    // On the platform: the box line carries the pick.
    const onPlatform = await simContract(stack, s.domain, s.contracts.aBox.id);
    const attrs = Object.fromEntries((onPlatform.lines[0].customAttributes as Json[]).map((a) => [a.key, a.value]));
    expect(attrs._box_items).toBe(`${cookie}:2,${brownie}:1`);
    expect(attrs._box_period).toBe(res.body.box.period);
    // And GET reads the same pick back.
    expect((await asA("GET", `${c(s.contracts.aBox.id)}/box`)).body.selection.items).toEqual(sel.items);
  });

  it("refuses picks off the menu, repeated variants and sizes outside the bounds with 400, changing nothing", async () => {
    const [cookie, brownie, muffin] = s.variants.menu;
    const before = await simContract(stack, s.domain, s.contracts.aBox.id);
    const bad: Array<[string, Json[]]> = [
      ["off the menu", [{ variant_id: s.variants.offMenu, quantity: 2 }]],
      [
        "twice",
        [
          { variant_id: cookie, quantity: 1 },
          { variant_id: cookie, quantity: 1 },
        ],
      ],
      ["below min", [{ variant_id: cookie, quantity: 1 }]],
      [
        "above max",
        [
          { variant_id: cookie, quantity: 3 },
          { variant_id: brownie, quantity: 1 },
          { variant_id: muffin, quantity: 1 },
        ],
      ],
      [
        "quantity 0",
        [
          { variant_id: cookie, quantity: 0 },
          { variant_id: brownie, quantity: 2 },
        ],
      ],
      ["not a variant id", [{ variant_id: "cookie", quantity: 2 }]],
      ["over the item's limit per box (1 muffin)", [{ variant_id: muffin, quantity: 2 }]],
    ];
    // The menu allows one muffin per box: a pick over it would be dropped for the fallback at the cutoff.
    await prisma.bundleBoxItem.updateMany({ where: { variantGid: muffin, box: { bundleId: s.bundleId } }, data: { maxQuantity: 1 } });
    for (const [why, items] of bad) {
      const res = await asA("POST", `${c(s.contracts.aBox.id)}/box`, { items });
      expect(res.status, why).toBe(400);
      expect(res.body.error.code, why).toBe("invalid_request");
    }
    await prisma.bundleBoxItem.updateMany({ where: { variantGid: muffin, box: { bundleId: s.bundleId } }, data: { maxQuantity: null } });
    expect((await simContract(stack, s.domain, s.contracts.aBox.id)).revisionId).toBe(before.revisionId);
  });

  it("refuses a pick on a plain plan with 400 invalid_request", async () => {
    const res = await asA("POST", `${c(s.contracts.a.id)}/box`, { items: [{ variant_id: s.variants.menu[0], quantity: 2 }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  describe("the selection window", () => {
    // Each case moves the box contract's next charge on the platform and publishes that period's menu.
    async function chargeAt(next: Date, published = true) {
      await stack.control.call("PATCH", `${shopPath()}/contracts/${enc(s.contracts.aBox.id)}`, { nextBillingDate: next.toISOString(), webhooks: false });
      await publishMenu(s.bundleId, periodOf(next), s.variants.menu, published);
    }
    const post = () => asA("POST", `${c(s.contracts.aBox.id)}/box`, { items: [{ variant_id: s.variants.menu[0], quantity: 2 }] });
    afterAll(async () => {
      await chargeAt(new Date(Date.now() + 10 * DAY));
    });

    it("is open one second before the cutoff (selection_cutoff_days before the charge)", async () => {
      // The cutoff is 3 days + 2 s from now: the request lands at least a second before it.
      await chargeAt(new Date(Date.now() + 3 * DAY + 2_000));
      const res = await post();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.box.editable).toBe(true);
    });

    it("is closed one second after the cutoff: 409 selection_closed saying when it closed", async () => {
      await chargeAt(new Date(Date.now() + 3 * DAY - 1_000));
      const res = await post();
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("selection_closed");
      expect(res.body.error.message).toMatch(/closed at \d{4}-/);
      const box = (await asA("GET", `${c(s.contracts.aBox.id)}/box`)).body;
      expect(box).toMatchObject({ editable: false, closed_reason: "past_cutoff" });
    });

    it("is closed while the period's menu is unpublished (and the draft menu's items are not shown)", async () => {
      await chargeAt(new Date(Date.now() + 20 * DAY), false);
      const res = await post();
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("selection_closed");
      const box = (await asA("GET", `${c(s.contracts.aBox.id)}/box`)).body;
      expect(box).toMatchObject({ editable: false, closed_reason: "menu_not_published", menu: { published: false, items: [] } });
    });
  });
});

describe("payment method", () => {
  it("GET answers the card without its id; null for a contract without a saved method", async () => {
    const res = await asA("GET", `${c(s.contracts.a.id)}/payment-method`);
    expect(res.status).toBe(200);
    expect(res.body.payment_method).toEqual({
      kind: "credit_card",
      brand: "visa",
      last4: "4242",
      expiry_month: 12,
      expiry_year: new Date().getUTCFullYear() + 3,
      paypal_email: null,
      expiry_state: "valid",
    });
    expect(JSON.stringify(res.body)).not.toContain("CustomerPaymentMethod");

    const manual = await stack.control.call<Json>("POST", `${shopPath()}/contracts`, { customerId: s.customers.a, paymentMethodId: null, webhooks: false });
    const none = await asA("GET", `${c(manual.id)}/payment-method`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ payment_method: null });
    const email = await asA("POST", `${c(manual.id)}/payment-method/update-email`);
    expect(email.status).toBe(400);
    expect(email.body.error.code).toBe("invalid_request");
  });

  it("update-email asks the platform to send the link to the method's owner", async () => {
    const before = await stack.control.call<Json[]>("GET", `${shopPath()}/emails`);
    const res = await asA("POST", `${c(s.contracts.a.id)}/payment-method/update-email`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const after = await stack.control.call<Json[]>("GET", `${shopPath()}/emails`);
    expect(after.length).toBe(before.length + 1);
    expect(after[after.length - 1]).toMatchObject({ kind: "payment_method_update", customerId: s.customers.a });
  });

  it("update-email is 500 internal_error when the platform refuses the send", async () => {
    await stack.control.failNext(s.domain, {
      operation: "customerPaymentMethodSendUpdateEmail",
      userErrors: [{ field: null, message: "Customer payment method is revoked", code: null }],
    });
    const res = await asA("POST", `${c(s.contracts.a.id)}/payment-method/update-email`);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("internal_error");
  });
});

describe("lines", () => {
  it("swap-options lists the other variants of the line's selling plan group, live", async () => {
    const res = await asA("GET", `${line(s.contracts.a)}/swap-options`);
    expect(res.status).toBe(200);
    expect(res.body.options).toEqual([
      { variant_id: s.variants.dark, variant_title: "Dark", product_title: "Coffee", image_url: null, price: "20.00", available: true },
    ]);
  });

  it("swap-options answers an empty list when the group offers nothing else (never a 404)", async () => {
    const res = await asA("GET", `${line(s.contracts.aBox)}/swap-options`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ options: [] });
  });

  it("an unknown line is 404 not_found", async () => {
    const path = `${c(s.contracts.a.id)}/lines/${enc("gid://shopify/SubscriptionLine/999999999")}`;
    expect((await asA("GET", `${path}/swap-options`)).status).toBe(404);
    const res = await asA("POST", path, { quantity: 2 });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("POST changes the quantity through draft, update, commit, and the mirror follows", async () => {
    const quantityBefore = (await simContract(stack, s.domain, s.contracts.a.id)).lines[0].quantity;
    const res = await asA("POST", line(s.contracts.a), { quantity: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await simContract(stack, s.domain, s.contracts.a.id)).lines[0].quantity).toBe(3);
    // The write reconciles the mirror at once, best effort; the contract webhook is the backstop
    // (docs/decisions/070), so the mirror is awaited rather than read once.
    const mirrored = await eventually(async () => {
      const row = await prisma.contractLine.findFirstOrThrow({ where: { lineGid: s.contracts.a.lines[0].id, contract: { shopId: s.shopId } } });
      return row.quantity === 3 && row;
    });
    expect(mirrored.quantity).toBe(3);
    const ops = await stack.control.operations(s.domain);
    const flow = ["subscriptionContractUpdate", "subscriptionDraftLineUpdate", "subscriptionDraftCommit"];
    expect(
      ops
        .map((o) => o.operation)
        .filter((o) => flow.includes(o))
        .slice(-3),
    ).toEqual(flow);
    // The audit row says what the line was before the customer's edit, and only what changed.
    const audit = await prisma.auditEvent.findFirstOrThrow({ where: { shopId: s.shopId, action: "subscription.update_line" }, orderBy: { createdAt: "desc" } });
    expect(audit.actorType).toBe("customer");
    expect(audit.changes).toEqual({ quantity: { before: quantityBefore, after: 3 } });
  });

  it("POST swaps the variant within the group; a variant outside it is 400", async () => {
    const ok = await asA("POST", line(s.contracts.a), { product_variant_id: s.variants.dark });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const now = await simContract(stack, s.domain, s.contracts.a.id);
    expect(now.lines[0].variantId).toBe(s.variants.dark);
    const bad = await asA("POST", `${c(s.contracts.a.id)}/lines/${enc(now.lines[0].id)}`, { product_variant_id: s.variants.decaf });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect((await simContract(stack, s.domain, s.contracts.a.id)).lines[0].variantId).toBe(s.variants.dark);
  });

  it("POST without a field, with quantity below 1 or not whole, is 400 invalid_request", async () => {
    for (const body of [{}, { quantity: 0 }, { quantity: 1.5 }, { quantity: "2" }]) {
      const res = await asA("POST", line(await simContract(stack, s.domain, s.contracts.a.id)), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("a commit refused with user errors is a 400 with the platform's message, and nothing changes", async () => {
    const before = await simContract(stack, s.domain, s.contracts.a.id);
    await stack.control.failNext(s.domain, {
      operation: "subscriptionDraftCommit",
      userErrors: [{ field: null, message: "The contract changed since this draft was created", code: "STALE_CONTRACT" }],
    });
    const res = await asA("POST", line(before), { quantity: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain("The contract changed since this draft was created");
    const after = await simContract(stack, s.domain, s.contracts.a.id);
    expect(after.lines[0].quantity).toBe(before.lines[0].quantity);
    expect(after.revisionId).toBe(before.revisionId);
  });
});

describe("reschedule", () => {
  const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

  it("moves the next charge to the date at noon UTC", async () => {
    const date = day(30);
    const before = new Date((await simContract(stack, s.domain, s.contracts.a.id)).nextBillingDate).toISOString();
    const res = await asA("POST", `${c(s.contracts.a.id)}/reschedule`, { date });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ok: true, next_billing_at: `${date}T12:00:00.000Z` });
    expect(new Date((await simContract(stack, s.domain, s.contracts.a.id)).nextBillingDate).toISOString()).toBe(`${date}T12:00:00.000Z`);
    const mirrored = await eventually(async () => {
      const row = await prisma.contract.findFirstOrThrow({ where: { shopId: s.shopId, contractGid: s.contracts.a.id } });
      return row.nextBillingAt?.toISOString() === `${date}T12:00:00.000Z` && row;
    });
    expect(mirrored.nextBillingAt?.toISOString()).toBe(`${date}T12:00:00.000Z`);
    const audit = await prisma.auditEvent.findFirstOrThrow({ where: { shopId: s.shopId, action: "subscription.reschedule" }, orderBy: { createdAt: "desc" } });
    expect(audit.changes).toEqual({ next_billing_at: { before, after: `${date}T12:00:00.000Z` } });
  });

  it("re-checks reschedule_max_months server-side (3 by default, the shop's own when set)", async () => {
    const far = day(5 * 30);
    const refused = await asA("POST", `${c(s.contracts.a.id)}/reschedule`, { date: far });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/within 3 months/);
    await prisma.portalConfig.create({ data: { shopId: s.shopId, rescheduleMaxMonths: 6 } });
    try {
      expect((await asA("POST", `${c(s.contracts.a.id)}/reschedule`, { date: far })).status).toBe(200);
    } finally {
      await prisma.portalConfig.delete({ where: { shopId: s.shopId } });
    }
  });

  it("refuses a past date, today, a malformed date and a date that is not on the calendar", async () => {
    for (const date of [day(-1), day(-400), "2026-13-01", "2027-02-30", "tomorrow", "2026-1-5"]) {
      const res = await asA("POST", `${c(s.contracts.a.id)}/reschedule`, { date });
      expect(res.status, date).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });
});

describe("cancellation save flow", () => {
  it("cancel-reason stores the reason against the mirror row", async () => {
    const res = await asA("POST", `${c(s.contracts.a.id)}/cancel-reason`, { reason: "Too much coffee" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const rows = await prisma.cancelReason.findMany({ where: { shopId: s.shopId, contractGid: s.contracts.a.id } });
    expect(rows.map((r) => [r.reason, r.customerGid])).toEqual([["Too much coffee", s.customers.a]]);
  });

  it("save-event derives preserved revenue from the mirror; anything but accepted is shown", async () => {
    const mirror = await prisma.contract.findFirstOrThrow({ where: { shopId: s.shopId, contractGid: s.contracts.aBox.id } });
    expect(
      (await asA("POST", `${c(s.contracts.aBox.id)}/save-event`, { offer_type: "pause", event_type: "shown", preserved_revenue_cents: 999999 })).status,
    ).toBe(200);
    expect((await asA("POST", `${c(s.contracts.aBox.id)}/save-event`, { offer_type: "pause", event_type: "accepted" })).status).toBe(200);
    expect((await asA("POST", `${c(s.contracts.aBox.id)}/save-event`, { offer_type: "skip", event_type: "clicked" })).status).toBe(200);
    const rows = await prisma.saveEvent.findMany({ where: { shopId: s.shopId, contractGid: s.contracts.aBox.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.offerType, r.eventType, r.preservedRevenueCents])).toEqual([
      ["pause", "shown", 0],
      ["pause", "accepted", mirror.monthlyAmountCents],
      ["skip", "shown", 0],
    ]);
    expect(mirror.monthlyAmountCents).toBe(3000);
    const bad = await asA("POST", `${c(s.contracts.aBox.id)}/save-event`, { offer_type: "refund", event_type: "shown" });
    expect(bad.status).toBe(400);
  });

  it("a contract the platform knows but the mirror does not is 404 for both, and nothing is written", async () => {
    const unmirrored = await stack.control.call<Json>("POST", `${shopPath()}/contracts`, { customerId: s.customers.a, webhooks: false });
    const reason = await asA("POST", `${c(unmirrored.id)}/cancel-reason`, { reason: "x" });
    const save = await asA("POST", `${c(unmirrored.id)}/save-event`, { offer_type: "skip", event_type: "shown" });
    expect([reason.status, save.status]).toEqual([404, 404]);
    expect(await prisma.cancelReason.count({ where: { shopId: s.shopId, contractGid: unmirrored.id } })).toBe(0);
    expect(await prisma.saveEvent.count({ where: { shopId: s.shopId, contractGid: unmirrored.id } })).toBe(0);
    // The platform-asked endpoints do see it: the mirror is not their authority.
    expect((await asA("GET", `${c(unmirrored.id)}/payment-method`)).status).toBe(200);
  });
});

describe("notifications", () => {
  it("preferences: every category on by default; POST replaces the full map, drops unknown keys and essential mail", async () => {
    const first = await asA("GET", "/notification-preferences");
    expect(first.status).toBe(200);
    expect(first.body.categories.map((x: Json) => x.key)).toEqual(["reminders", "orders", "box", "winback"]);
    expect(first.body.values).toEqual({ reminders: true, orders: true, box: true, winback: true });

    const saved = await asA("POST", "/notification-preferences", {
      preferences: { reminders: false, box: false, winback: false, account: false, billing: false, surprise: "yes" },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.ok).toBe(true);
    expect(saved.body.values).toEqual({ reminders: false, orders: true, box: false, winback: false });
    const row = await prisma.notificationPreference.findUniqueOrThrow({ where: { shopId_customerGid: { shopId: s.shopId, customerGid: s.customers.a } } });
    expect(Object.keys(row.values as object).sort()).toEqual(["box", "orders", "reminders", "winback"]);

    // Full map, not a patch: what is left out returns to its default.
    const second = await asA("POST", "/notification-preferences", { preferences: { reminders: false } });
    expect(second.body.values).toEqual({ reminders: false, orders: true, box: true, winback: true });
    expect((await asA("GET", "/notification-preferences")).body.values).toEqual(second.body.values);

    const bad = await asA("POST", "/notification-preferences", { preferences: { orders: "no" } });
    expect(bad.status).toBe(400);
    // Customer B's map is untouched.
    const b = await api.sessionFor(s.customers.b);
    expect((await api.call("GET", "/notification-preferences", { session: b })).body.values).toEqual({
      reminders: true,
      orders: true,
      box: true,
      winback: true,
    });
  });

  it("activity: the customer's own entries, newest first, at most 50", async () => {
    const t0 = Date.now() - 100 * 60_000;
    const row = (customerGid: string, i: number) => ({
      shopId: s.shopId,
      customerGid,
      event: "renewal_reminder",
      category: "reminders",
      status: "delivered",
      title: `Reminder ${i}`,
      createdAt: new Date(t0 + i * 60_000),
    });
    await prisma.notificationLogEntry.createMany({ data: [...Array.from({ length: 55 }, (_, i) => row(s.customers.a, i)), row(s.customers.b, 99)] });
    const res = await asA("GET", "/notification-activity");
    expect(res.status).toBe(200);
    const feed = res.body.activity as Json[];
    expect(feed.length).toBe(50);
    expect(feed[0]).toMatchObject({ title: "Reminder 54", status: "delivered", occurred_at: new Date(t0 + 54 * 60_000).toISOString() });
    expect(feed[49].title).toBe("Reminder 5");
    expect(feed.some((e) => e.title === "Reminder 99")).toBe(false);
  });
});
