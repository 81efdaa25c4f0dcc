// Contract tests for the fifteen Admin API reads (/docs, Admin API).
import { prisma } from "../../../app/db.server";
import { ALL_READ_SCOPES, api, enc } from "../../support/admin-factories";
import { createBundle, createContract, createContracts, createKey, createPlanGroup, createShop, gid } from "../../support/fixtures";

describe("GET /subscriptions", () => {
  it("pages 600+ contracts with limit=1000 (clamped to 250), each exactly once, newest first", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    // Equal created_at in blocks of 7 exercises the id tie-breaker.
    const base = Date.now() - 86_400_000;
    const rows = await createContracts(shop.id, 613, (i) => ({ createdAt: new Date(base - Math.floor(i / 7) * 1000) }));
    await createContracts(shop.id, 5, () => ({ createdByService: false }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor ? `&cursor=${enc(cursor)}` : "";
      const r = await api(key, "GET", `/subscriptions?limit=1000${after}`);
      expect(r.status).toBe(200);
      expect(r.json.data.length).toBeLessThanOrEqual(250);
      seen.push(...r.json.data.map((s: { contract_id: string }) => s.contract_id));
      cursor = r.json.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.length).toBe(613);
    expect(new Set(seen).size).toBe(613);
    expect(new Set(seen)).toEqual(new Set(rows.map((r) => r.contractGid)));
  });

  it("filters by status, plan_id (group), customer_id and updated_after", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    const group = gid("SellingPlanGroup");
    const customer = gid("Customer");
    const old = new Date(Date.now() - 3 * 86_400_000);
    await createContracts(shop.id, 4, (i) => ({ status: i % 2 ? "PAUSED" : "ACTIVE", updatedAt: old, createdAt: old }));
    const fresh = await createContract(shop.id, { sellingPlanGroupGid: group, customerGid: customer, status: "CANCELLED" });
    const byStatus = await api(key, "GET", "/subscriptions?status=PAUSED");
    expect(byStatus.json.data.map((s: { status: string }) => s.status)).toEqual(["PAUSED", "PAUSED"]);
    const lower = await api(key, "GET", "/subscriptions?status=cancelled");
    expect(lower.json.data.map((s: { contract_id: string }) => s.contract_id)).toEqual([fresh.contractGid]);
    const byPlan = await api(key, "GET", `/subscriptions?plan_id=${enc(group)}`);
    expect(byPlan.json.data.map((s: { contract_id: string }) => s.contract_id)).toEqual([fresh.contractGid]);
    const byCustomer = await api(key, "GET", `/subscriptions?customer_id=${enc(customer)}`);
    expect(byCustomer.json.data).toHaveLength(1);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const recent = await api(key, "GET", `/subscriptions?updated_after=${enc(yesterday)}`);
    expect(recent.json.data.map((s: { contract_id: string }) => s.contract_id)).toEqual([fresh.contractGid]);
  });

  it.each(["yesterday", "2025-13-01T00:00:00Z", "2025-02-30", "2025-01-01T10:00:00", "1700000000"])(
    "refuses updated_after=%s with 400 invalid_request",
    async (value) => {
      const shop = await createShop();
      const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
      const r = await api(key, "GET", `/subscriptions?updated_after=${enc(value)}`);
      expect(r.status).toBe(400);
      expect(r.error?.code).toBe("invalid_request");
      expect(r.error?.message).toContain(value);
    },
  );

  it("refuses unknown enum values and unknown parameters, naming them", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    for (const q of ["status=FAILED", "status=bogus"]) {
      const r = await api(key, "GET", `/subscriptions?${q}`);
      expect(r.status).toBe(400);
      expect(r.error?.message).toContain(q.split("=")[1]);
    }
    const typo = await api(key, "GET", "/subscriptions?stauts=ACTIVE");
    expect(typo.status).toBe(400);
    expect(typo.error?.message).toContain("stauts");
  });

  it("a malformed or foreign cursor is 400 invalid_cursor", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    await createContracts(shop.id, 3);
    const first = await api(key, "GET", "/subscriptions?limit=1");
    expect(first.json.next_cursor).toEqual(expect.any(String));
    expect((await api(key, "GET", "/subscriptions?cursor=garbage")).error?.code).toBe("invalid_cursor");
    const otherList = await api(key, "GET", `/subscriptions?status=ACTIVE&cursor=${enc(first.json.next_cursor!)}`);
    expect(otherList.error?.code).toBe("invalid_cursor");
  });

  it("rows carry the spec fields, money as decimal strings, and selling_plan_id", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    const group = await createPlanGroup(shop.id);
    const c = await createContract(shop.id, {
      sellingPlanGroupGid: group.groupGid,
      sellingPlanGid: group.sellingPlans[0].sellingPlanGid,
      monthlyAmountCents: 1234,
      currencyCode: "EUR",
    });
    const r = await api(key, "GET", "/subscriptions");
    expect(r.json.data[0]).toMatchObject({
      contract_id: c.contractGid,
      status: "ACTIVE",
      next_billing_at: c.nextBillingAt!.toISOString(),
      selling_plan_group_id: group.groupGid,
      selling_plan_id: group.sellingPlans[0].sellingPlanGid,
      customer_id: c.customerGid,
      monthly_amount: { amount: "12.34", currency_code: "EUR" },
    });
  });
});

describe("GET /subscriptions/{contract_gid}", () => {
  it("returns the row with lines and gift; customer data only with read:customers", async () => {
    const shop = await createShop();
    const c = await createContract(shop.id, {}, [{ quantity: 2, priceCents: 1500 }]);
    await prisma.gift.create({
      data: {
        shopId: shop.id,
        contractId: c.id,
        kind: "PREPAID",
        status: "CLAIMED",
        gifterName: "Ann",
        gifterEmail: "ann@example.com",
        recipientName: "Bo",
        recipientEmail: "bo@example.com",
        message: "Enjoy",
        claimTokenHash: "deadbeef",
        prepaidCharges: 3,
      },
    });
    const without = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    const r = await api(without, "GET", `/subscriptions/${enc(c.contractGid)}`);
    expect(r.status).toBe(200);
    expect(r.json.lines[0]).toMatchObject({ line_id: c.lines[0].lineGid, quantity: 2, price: { amount: "15.00", currency_code: "USD" } });
    expect(r.json.gift).toMatchObject({
      kind: "prepaid",
      status: "claimed",
      gifter_name: null,
      gifter_email: null,
      recipient_name: null,
      recipient_email: null,
      message: null,
    });
    expect(r.text).not.toContain("deadbeef");
    expect(r.text).not.toMatch(/claim_token/);
    const withCustomers = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions", "read:customers"] })).key;
    const full = await api(withCustomers, "GET", `/subscriptions/${enc(c.contractGid)}`);
    expect(full.json.gift).toMatchObject({ gifter_name: "Ann", gifter_email: "ann@example.com", recipient_name: "Bo", message: "Enjoy" });
    expect(full.text).not.toContain("deadbeef");
  });

  it("gift is null on a non-gift; other apps' contracts, other shops' and unknown ids are the same 404", async () => {
    const shop = await createShop();
    const other = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:subscriptions"] })).key;
    const mine = await createContract(shop.id);
    expect((await api(key, "GET", `/subscriptions/${enc(mine.contractGid)}`)).json.gift).toBeNull();
    const foreignApp = await createContract(shop.id, { createdByService: false });
    const otherShop = await createContract(other.id);
    const answers = await Promise.all(
      [foreignApp.contractGid, otherShop.contractGid, gid("SubscriptionContract"), "not-a-gid"].map((g) => api(key, "GET", `/subscriptions/${enc(g)}`)),
    );
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.error?.code).toBe("not_found");
    }
    expect(answers[0].error?.message.replace(foreignApp.contractGid, "X")).toBe(answers[2].error?.message.replace(/gid:\S+/, "X"));
    const list = await api(key, "GET", "/subscriptions");
    expect(list.json.data.map((s: { contract_id: string }) => s.contract_id)).toEqual([mine.contractGid]);
  });
});

describe("GET /plans", () => {
  it("returns the group id (never the child), rolling schedule as {mode} only, anchored in full; status filter", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:plans"] })).key;
    const rolling = await createPlanGroup(shop.id, { name: "Rolling" });
    const anchored = await createPlanGroup(shop.id, {
      name: "Anchored",
      scheduleMode: "ANCHORED",
      anchorDay: 15,
      anchorMonths: [9, 3],
      cutoffDays: 5,
      preAnchorBehavior: "ASAP",
      shipDay: null,
      scheduleLabel: "Charged on the 15th of March and September",
      interval: "YEAR",
    });
    await createPlanGroup(shop.id, { name: "Old", status: "ARCHIVED" });
    const r = await api(key, "GET", "/plans?status=active");
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.json.data.map((p) => [p.selling_plan_group_id, p]));
    expect(Object.keys(byId).sort()).toEqual([rolling.groupGid, anchored.groupGid].sort());
    expect(byId[rolling.groupGid].schedule).toEqual({ mode: "rolling" });
    expect(byId[anchored.groupGid].schedule).toEqual({
      mode: "anchored",
      anchor_day: 15,
      anchor_months: [3, 9],
      cutoff_days: 5,
      pre_anchor_behavior: "ASAP",
      ship_day: null,
      label: "Charged on the 15th of March and September",
    });
    expect(byId[anchored.groupGid].cadence.interval).toBe("MONTH");
    expect(byId[rolling.groupGid]).toMatchObject({
      cadence: { label: "Every month", interval: "MONTH", interval_count: 1 },
      billing: { label: "Billed monthly" },
      discount: { label: "10% off" },
      giftable: false,
    });
    expect(r.text).not.toContain(rolling.sellingPlans[0].sellingPlanGid);
    expect((await api(key, "GET", "/plans")).json.data).toHaveLength(3);
    expect((await api(key, "GET", "/plans?status=archived")).json.data).toHaveLength(1);
    const bad = await api(key, "GET", "/plans?status=draft");
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toContain("draft");
  });
});

describe("bundles and boxes", () => {
  it("lists bundles with the group id; boxes by period, default the 24 most recent, bad period 400", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:bundles"] })).key;
    const group = await createPlanGroup(shop.id);
    const bundle = await createBundle({ shopId: shop.id, groupId: group.id, title: "Box", kind: "BUILD_A_BOX", boxSizeMin: 3, boxSizeMax: 6 });
    for (let m = 0; m < 30; m++) {
      const d = new Date(Date.UTC(2023, m, 1));
      const period = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
      await prisma.bundleBox.create({
        data: {
          bundleId: bundle.id,
          period,
          published: true,
          items: { create: [{ variantGid: gid("ProductVariant"), productTitle: `P${m}`, priceCents: 500 + m, position: 0 }] },
        },
      });
    }
    const list = await api(key, "GET", "/bundles");
    expect(list.json.data).toEqual([expect.objectContaining({ id: bundle.id, kind: "build_a_box", selling_plan_group_id: group.groupGid })]);
    expect(list.text).not.toContain(group.sellingPlans[0].sellingPlanGid);
    const boxes = await api(key, "GET", `/bundles/${bundle.id}/boxes`);
    expect(boxes.json.data).toHaveLength(24);
    expect(boxes.json.data[0].period).toBe("2025-06");
    expect(boxes.json.data[23].period).toBe("2023-07");
    const one = await api(key, "GET", `/bundles/${bundle.id}/boxes?period=2024-02`);
    expect(one.json.data).toEqual([
      expect.objectContaining({ period: "2024-02", items: [expect.objectContaining({ product_title: "P13", price_cents: 513 })] }),
    ]);
    expect((await api(key, "GET", `/bundles/${bundle.id}/boxes?period=2019-01`)).json.data).toEqual([]);
    for (const p of ["2024-13", "2024-2", "24-02", "2024-02-01"]) {
      const r = await api(key, "GET", `/bundles/${bundle.id}/boxes?period=${p}`);
      expect(r.status).toBe(400);
      expect(r.error?.message).toContain(p);
    }
    expect((await api(key, "GET", `/bundles/nope/boxes`)).status).toBe(404);
  });
});

describe("mix-match", () => {
  it("lists plans and returns the full catalogue with cart_group_id and price_cents", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:mixmatch"] })).key;
    const group = await createPlanGroup(shop.id);
    const plan = await prisma.mixMatchPlan.create({
      data: {
        shopId: shop.id,
        groupId: group.id,
        title: "Pick 6",
        cartGroupId: "mm_abc",
        priceCents: 3600,
        minItems: 6,
        maxItems: 6,
        categories: {
          create: [
            { title: "Teas", position: 1, entries: { create: [{ variantGid: gid("ProductVariant"), productTitle: "Green", priceCents: 600, position: 0 }] } },
            { title: "Coffees", position: 0, entries: { create: [{ variantGid: gid("ProductVariant"), productTitle: "Dark", priceCents: 700, position: 0 }] } },
          ],
        },
      },
    });
    const list = await api(key, "GET", "/mix-match");
    expect(list.json.data).toEqual([
      expect.objectContaining({ id: plan.id, selling_plan_group_id: group.groupGid, cart_group_id: "mm_abc", price_cents: 3600 }),
    ]);
    const one = await api(key, "GET", `/mix-match/${plan.id}`);
    expect(one.json.categories.map((c: { title: string }) => c.title)).toEqual(["Coffees", "Teas"]);
    expect(one.json.categories[0].entries[0]).toMatchObject({ product_title: "Dark", price_cents: 700 });
    expect(one.text).not.toContain(group.sellingPlans[0].sellingPlanGid);
    expect((await api(key, "GET", "/mix-match/unknown")).status).toBe(404);
  });
});

describe("gifts", () => {
  it("hides names, e-mails and message without read:customers; never a claim token; status filter", async () => {
    const shop = await createShop();
    const base = {
      shopId: shop.id,
      gifterName: "Ann",
      gifterEmail: "ann@example.com",
      recipientName: "Bo",
      recipientEmail: "bo@example.com",
      message: "Hi",
      claimTokenHash: "secret-hash",
    };
    // Claim token hashes are unique (docs/decisions/136-gift-lifecycle.md): one per gift.
    await prisma.gift.create({ data: { ...base, claimTokenHash: "secret-hash-1", kind: "RECURRING", status: "CLAIMED" } });
    await prisma.gift.create({ data: { ...base, claimTokenHash: "secret-hash-2", kind: "PREPAID", status: "SENT", prepaidCharges: 6 } });
    const plain = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:gifts"] })).key;
    const r = await api(plain, "GET", "/gifts");
    expect(r.json.data).toHaveLength(2);
    for (const g of r.json.data) {
      expect(g).toMatchObject({ gifter_name: null, gifter_email: null, recipient_name: null, recipient_email: null, message: null });
    }
    expect(r.text).not.toContain("secret-hash");
    expect(r.text).not.toContain("ann@example.com");
    const full = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:gifts", "read:customers"] })).key;
    const claimed = await api(full, "GET", "/gifts?status=claimed");
    expect(claimed.json.data).toEqual([expect.objectContaining({ kind: "recurring", status: "claimed", gifter_email: "ann@example.com", message: "Hi" })]);
    expect(claimed.text).not.toContain("secret-hash");
    expect((await api(full, "GET", "/gifts?status=lost")).status).toBe(400);
  });
});

describe("win-back and notifications", () => {
  it("lists campaigns and the send ledger with attribution", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:winback"] })).key;
    const campaign = await prisma.winbackCampaign.create({
      data: { shopId: shop.id, name: "Come back", status: "active", offerLabel: "20% off", discountPercent: 20, delayDays: 7 },
    });
    const at = new Date();
    await prisma.winbackSend.create({
      data: {
        shopId: shop.id,
        campaignId: campaign.id,
        contractGid: gid("SubscriptionContract"),
        customerGid: gid("Customer"),
        sentAt: at,
        reactivated: true,
        reactivatedAt: at,
        recoveredAmountCents: 4599,
        currencyCode: "USD",
      },
    });
    expect((await api(key, "GET", "/winback/campaigns")).json.data).toEqual([expect.objectContaining({ id: campaign.id, offer_label: "20% off" })]);
    const sends = await api(key, "GET", `/winback/campaigns/${campaign.id}/sends`);
    expect(sends.json.data).toEqual([
      expect.objectContaining({ reactivated: true, reactivated_at: at.toISOString(), recovered_amount: { amount: "45.99", currency_code: "USD" } }),
    ]);
    expect((await api(key, "GET", "/winback/campaigns/nope/sends")).status).toBe(404);
  });

  it("notification log carries no name or e-mail; filters event, status, customer_id", async () => {
    const shop = await createShop();
    const key = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["read:notifications", "read:customers"] })).key;
    const customer = gid("Customer");
    await prisma.notificationLogEntry.createMany({
      data: [
        { shopId: shop.id, customerGid: customer, event: "renewal_reminder", category: "reminders", status: "delivered", title: "Your order ships soon" },
        { shopId: shop.id, customerGid: gid("Customer"), event: "payment_failed", category: "account", status: "bounced", title: "Payment failed" },
      ],
    });
    const all = await api(key, "GET", "/notifications");
    expect(all.json.data).toHaveLength(2);
    for (const n of all.json.data) {
      expect(Object.keys(n).sort()).toEqual([
        "bounced_at",
        "category",
        "contract_id",
        "created_at",
        "customer_id",
        "delivered_at",
        "event",
        "id",
        "sent_at",
        "status",
        "title",
      ]);
    }
    expect((await api(key, "GET", "/notifications?event=payment_failed")).json.data).toHaveLength(1);
    expect((await api(key, "GET", "/notifications?status=delivered")).json.data).toHaveLength(1);
    expect((await api(key, "GET", `/notifications?customer_id=${enc(customer)}`)).json.data).toHaveLength(1);
    expect((await api(key, "GET", "/notifications?status=opened")).status).toBe(400);
  });
});

describe("scopes", () => {
  it("every read demands its own scope (insufficient_scope naming it)", async () => {
    const shop = await createShop();
    const none = (await createKey({ shopId: shop.id, name: "admin test", scopes: ["write:subscriptions"] })).key;
    const paths: Array<[`/${string}`, string]> = [
      ["/subscriptions", "read:subscriptions"],
      [`/subscriptions/${enc(gid("SubscriptionContract"))}`, "read:subscriptions"],
      ["/plans", "read:plans"],
      ["/bundles", "read:bundles"],
      ["/bundles/x/boxes", "read:bundles"],
      ["/mix-match", "read:mixmatch"],
      ["/mix-match/x", "read:mixmatch"],
      ["/gifts", "read:gifts"],
      ["/winback/campaigns", "read:winback"],
      ["/winback/campaigns/x/sends", "read:winback"],
      ["/notifications", "read:notifications"],
      ["/analytics/mrr", "read:analytics"],
      ["/analytics/churn", "read:analytics"],
      ["/analytics/cohorts", "read:analytics"],
      ["/analytics/recovery", "read:analytics"],
      ["/analytics/cancellations", "read:analytics"],
    ];
    for (const [path, scope] of paths) {
      const r = await api(none, "GET", path);
      expect(r.status, path).toBe(403);
      expect(r.error?.code).toBe("insufficient_scope");
      expect(r.error?.message).toContain(scope);
    }
    const all = (await createKey({ shopId: shop.id, name: "admin test", scopes: ALL_READ_SCOPES })).key;
    for (const [path] of paths.filter(([p]) => !/\/x|SubscriptionContract/.test(p))) {
      expect((await api(all, "GET", path)).status, path).toBe(200);
    }
  });
});
