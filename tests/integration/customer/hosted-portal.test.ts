// The hosted portal behind Shopify's app proxy (docs/decisions/140-hosted-portal-app-proxy.md,
// 141-hosted-portal-forms.md) over real HTTP: through the simulator's storefront (login, the
// forwarded and signed request, the Liquid answer in the theme layout) and straight at the app
// with queries signed here the way Shopify documents it. Forged, stale and tampered signatures
// are refused; another customer's contract is refused for reads and writes; every action lands
// on the platform (the simulator) and in the app's mirror; a POST without the page's form token
// does nothing; a hidden action is absent and refused.
import { createHmac } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { useStack } from "../../support/stack";
import { simContract } from "./helpers";

const stack = useStack({ workers: false }, 90_000);
let s: CustomerShop;
beforeAll(async () => {
  s = await seedCustomerShop(stack.control, stack.installShop);
}, 90_000);

const PREFIX = "/apps/subscriptions";
const num = (gid: string) => gid.split("/").pop()!;

/** Shopify's app proxy query: sorted key=value pairs joined without separators, hex HMAC-SHA256. */
function signed(
  path: string,
  opts: { customer?: string | null; shop?: string; timestamp?: number; secret?: string; extra?: Record<string, string> } = {},
): string {
  const params: Record<string, string> = {
    ...opts.extra,
    shop: opts.shop ?? s.domain,
    path_prefix: PREFIX,
    timestamp: String(opts.timestamp ?? Math.floor(Date.now() / 1000)),
    logged_in_customer_id: opts.customer === null ? "" : num(opts.customer ?? s.customers.a),
  };
  const message = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("");
  const signature = createHmac("sha256", opts.secret ?? env().SHOPIFY_API_SECRET)
    .update(message)
    .digest("hex");
  return `${stack.appUrl}/portal${path}?${new URLSearchParams({ ...params, signature })}`;
}

const get = (path: string, opts?: Parameters<typeof signed>[1]) => fetch(signed(path, opts), { redirect: "manual" });

/** The page's form token, as a browser would post it back. */
async function tokenFrom(path: string, customer = s.customers.a): Promise<string> {
  const html = await (await get(path, { customer })).text();
  const m = /name="_token" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form on ${path}: ${html.slice(0, 300)}`);
  return m[1];
}

async function post(path: string, fields: Record<string, string>, opts: { customer?: string; token?: string | null } = {}) {
  const customer = opts.customer ?? s.customers.a;
  const token = opts.token === undefined ? await tokenFrom("", customer) : opts.token;
  const body = new URLSearchParams(token === null ? fields : { _token: token, ...fields });
  return fetch(signed(path, { customer }), { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
}

const mirror = (gid: string) => prisma.contract.findFirstOrThrow({ where: { shopId: s.shopId, contractGid: gid }, include: { lines: true } });
const sim = (gid: string) => simContract(stack, s.domain, gid);

describe("proxy verification", () => {
  it("a signed request answers Liquid; forged, stale, tampered or foreign-secret signatures are 400 with no page", async () => {
    const ok = await get("");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^application\/liquid/);
    expect(await ok.text()).toContain("My subscriptions");

    const forged = signed("").replace(/signature=[0-9a-f]+/, `signature=${"0".repeat(64)}`);
    const stale = signed("", { timestamp: Math.floor(Date.now() / 1000) - 600 });
    const otherSecret = signed("", { secret: "not-the-app-secret" });
    // The customer id changed after signing: the signature no longer matches.
    const tampered = signed("").replace(`logged_in_customer_id=${num(s.customers.a)}`, `logged_in_customer_id=${num(s.customers.b)}`);
    const unsigned = `${stack.appUrl}/portal?shop=${s.domain}&logged_in_customer_id=${num(s.customers.a)}`;
    for (const url of [forged, stale, otherSecret, tampered, unsigned]) {
      const res = await fetch(url);
      expect([url, res.status]).toEqual([url, 400]);
      expect(await res.text()).not.toContain("My subscriptions");
    }
  });

  it("a shopper who is not logged in gets the store's login link, and a POST does nothing", async () => {
    const res = await get("", { customer: null });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('href="{{ routes.account_login_url }}?return_url=%2Fapps%2Fsubscriptions"');
    const before = await sim(s.contracts.a.id);
    const p = await fetch(signed(`/s/${num(s.contracts.a.id)}/pause`, { customer: null }), { method: "POST", redirect: "manual" });
    expect(p.status).toBe(401);
    expect((await sim(s.contracts.a.id)).status).toBe(before.status);
  });

  it("through the simulated storefront: login, then the signed forward renders inside the theme", async () => {
    const base = `${stack.sim.url}/storefront/${encodeURIComponent(s.domain)}`;
    const anonymous = await (await fetch(`${base}${PREFIX}`)).text();
    expect(anonymous).toContain(`href="/storefront/${encodeURIComponent(s.domain)}/account/login?return_url=%2Fapps%2Fsubscriptions"`);
    const login = await fetch(`${base}/account/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ customer_id: s.customers.a, return_url: PREFIX }),
    });
    expect(login.status).toBe(302);
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const page = await fetch(`${base}${PREFIX}`, { headers: { cookie } });
    const html = await page.text();
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toMatch(/<main id="MainContent">[\s\S]*My subscriptions[\s\S]*<\/main>/);
    expect(html).toContain(`/s/${num(s.contracts.a.id)}`);
    expect(html).not.toContain(`/s/${num(s.contracts.b.id)}`);
  });
});

describe("ownership and forms", () => {
  it("another customer's contract id is refused for the page and for every action; nothing changes", async () => {
    const b = num(s.contracts.b.id);
    expect((await get(`/s/${b}`)).status).toBe(403);
    expect((await get(`/s/${b}/cancel`)).status).toBe(403);
    const before = await sim(s.contracts.b.id);
    for (const action of ["skip", "pause", "cancel"]) {
      const res = await post(`/s/${b}/${action}`, { choice: "cancel" });
      expect([action, res.status]).toEqual([action, 403]);
    }
    expect((await post(`/s/${b}/lines/${num(s.contracts.b.lines[0].id)}`, { quantity: "5" })).status).toBe(403);
    const after = await sim(s.contracts.b.id);
    expect([after.status, after.nextBillingDate, after.lines[0].quantity]).toEqual([before.status, before.nextBillingDate, before.lines[0].quantity]);
    expect((await get(`/s/999999999`)).status).toBe(404);
  });

  it("a POST without the form token, with another customer's token or an expired one does nothing", async () => {
    const a = num(s.contracts.a.id);
    const before = await sim(s.contracts.a.id);
    const tokenB = await tokenFrom("", s.customers.b);
    const expired = `${Math.floor(Date.now() / 1000) - 10}.${"A".repeat(43)}`;
    for (const token of [null, tokenB, expired, "garbage"]) {
      const res = await post(`/s/${a}/pause`, {}, { token });
      expect([token, res.status]).toEqual([token, 403]);
    }
    expect((await sim(s.contracts.a.id)).status).toBe(before.status);
  });

  it("GET never acts: an action's path is not a page", async () => {
    const before = await sim(s.contracts.a.id);
    expect((await get(`/s/${num(s.contracts.a.id)}/skip`)).status).toBe(404);
    expect((await sim(s.contracts.a.id)).nextBillingDate).toBe(before.nextBillingDate);
  });
});

describe("delivery address", () => {
  const a = () => num(s.contracts.a.id);
  const address = {
    firstName: "Ada",
    lastName: "Lovelace",
    address1: "12 Analytical Row",
    address2: "Flat 3",
    city: "Portland",
    provinceCode: "or",
    zip: "97201",
    countryCode: "us",
  };
  const successes = () =>
    prisma.auditEvent.findMany({ where: { shopId: s.shopId, targetId: s.contracts.a.id, action: "subscription.update_address", outcome: "success" } });

  it("a valid address lands on the platform's contract and in the mirror; the form is prefilled from the platform; the history shows it", async () => {
    const revision = (await mirror(s.contracts.a.id)).revision;
    const detail = await (await get(`/s/${a()}`)).text();
    expect(detail).toContain(`href="${PREFIX}/s/${a()}/address"`);
    expect((await get(`/s/${a()}/address`)).status).toBe(200);
    const res = await post(`/s/${a()}/address`, address);
    expect([res.status, res.headers.get("location")]).toEqual([303, `${PREFIX}/s/${a()}?done=address`]);
    const shipped = (await sim(s.contracts.a.id)).deliveryAddress;
    expect(shipped).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      address1: "12 Analytical Row",
      address2: "Flat 3",
      city: "Portland",
      zip: "97201",
    });
    expect(JSON.stringify(shipped)).toMatch(/"US"/);
    expect((await mirror(s.contracts.a.id)).revision).toBeGreaterThan(revision);
    const form = await (await get(`/s/${a()}/address`)).text();
    expect(form).toContain('name="address1" type="text" autocomplete="address-line1" required value="12 Analytical Row"');
    expect(form).toContain('name="countryCode" type="text" autocomplete="country" required value="US"');
    const rows = await successes();
    expect(rows).toHaveLength(1);
    expect([rows[0].actorType, rows[0].actorId]).toEqual(["customer", s.customers.a]);
    // The trail names the fields that changed, never the address itself.
    expect(JSON.stringify(rows[0].changes)).not.toContain("Analytical");
    expect(await (await get(`/s/${a()}`)).text()).toContain("Delivery address changed");
  });

  it("bad input is answered with the form and a message on each field, and nothing is written", async () => {
    const before = (await sim(s.contracts.a.id)).deliveryAddress;
    const n = (await successes()).length;
    const res = await post(`/s/${a()}/address`, { ...address, address1: "  ", city: "", countryCode: "USA", zip: "" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(
      'aria-invalid="true" aria-describedby="addr-address1-error"><span class="field-error" id="addr-address1-error">Enter the street address.</span>',
    );
    expect(html).toContain('id="addr-city-error">Enter the city.</span>');
    expect(html).toContain('id="addr-countryCode-error">Enter the country&#39;s two-letter code, for example US.</span>');
    expect(html).toContain('value="Lovelace"'); // what the shopper typed is kept
    expect(html).not.toContain("addr-firstName-error");
    // A country with postal codes needs one; one without does not.
    const noZip = await (await post(`/s/${a()}/address`, { ...address, zip: "" })).text();
    expect(noZip).toContain('id="addr-zip-error">Enter the ZIP or postal code.</span>');
    expect((await sim(s.contracts.a.id)).deliveryAddress).toEqual(before);
    expect((await successes()).length).toBe(n);
  });

  it("another customer's contract is refused for the form and the post; nothing changes", async () => {
    const b = num(s.contracts.b.id);
    const before = (await sim(s.contracts.b.id)).deliveryAddress;
    expect((await get(`/s/${b}/address`)).status).toBe(403);
    expect((await post(`/s/${b}/address`, address)).status).toBe(403);
    expect((await sim(s.contracts.b.id)).deliveryAddress).toEqual(before);
  });

  it("hidden by the merchant: no link, the form and the post are refused, nothing changes", async () => {
    await prisma.portalConfig.upsert({
      where: { shopId: s.shopId },
      create: { shopId: s.shopId, hiddenActions: ["edit_address"] },
      update: { hiddenActions: ["edit_address"] },
    });
    try {
      expect(await (await get(`/s/${a()}`)).text()).not.toContain("Change delivery address");
      const before = (await sim(s.contracts.a.id)).deliveryAddress;
      expect((await get(`/s/${a()}/address`)).status).toBe(403);
      expect((await post(`/s/${a()}/address`, { ...address, address1: "1 Hidden Way" })).status).toBe(403);
      expect((await post(`/s/${a()}/address`, { ...address, address1: "" })).status).toBe(403);
      expect((await sim(s.contracts.a.id)).deliveryAddress).toEqual(before);
    } finally {
      await prisma.portalConfig.update({ where: { shopId: s.shopId }, data: { hiddenActions: [] } });
    }
  });
});

describe("actions", () => {
  const a = () => num(s.contracts.a.id);
  const expectRedirect = (res: Response, notice: string) => {
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${PREFIX}/s/${a()}?done=${notice}`);
  };

  it("skip moves the next charge one interval on the platform and in the mirror", async () => {
    const before = await sim(s.contracts.a.id);
    expectRedirect(await post(`/s/${a()}/skip`, {}), "skipped");
    const after = await sim(s.contracts.a.id);
    expect(new Date(after.nextBillingDate).getUTCMonth()).toBe((new Date(before.nextBillingDate).getUTCMonth() + 1) % 12);
    expect((await mirror(s.contracts.a.id)).nextBillingAt?.toISOString()).toBe(new Date(after.nextBillingDate).toISOString());
  });

  it("reschedule within the window moves the date; beyond it is refused", async () => {
    const date = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    expectRedirect(await post(`/s/${a()}/reschedule`, { date }), "rescheduled");
    expect((await sim(s.contracts.a.id)).nextBillingDate.slice(0, 10)).toBe(date);
    expect((await mirror(s.contracts.a.id)).nextBillingAt?.toISOString().slice(0, 10)).toBe(date);
    const far = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10); // the default window is 3 months
    const res = await post(`/s/${a()}/reschedule`, { date: far });
    expect(res.status).toBe(400);
    expect((await sim(s.contracts.a.id)).nextBillingDate.slice(0, 10)).toBe(date);
  });

  it("quantity and swap change the line through draft and commit", async () => {
    const line = num(s.contracts.a.lines[0].id);
    expectRedirect(await post(`/s/${a()}/lines/${line}`, { quantity: "3" }), "quantity");
    expect((await sim(s.contracts.a.id)).lines[0].quantity).toBe(3);
    const swapPage = await (await get(`/s/${a()}/lines/${line}/swap`)).text();
    expect(swapPage).toContain(`value="${num(s.variants.dark)}"`);
    expect(swapPage).not.toContain(`value="${num(s.variants.decaf)}"`); // not in the plan group
    expectRedirect(await post(`/s/${a()}/lines/${line}`, { variant_id: num(s.variants.dark) }), "swapped");
    expect((await sim(s.contracts.a.id)).lines[0].variantId).toBe(s.variants.dark);
    const m = await mirror(s.contracts.a.id);
    expect([m.lines[0].quantity, m.lines[0].variantGid]).toEqual([3, s.variants.dark]);
    expect((await post(`/s/${a()}/lines/${line}`, { variant_id: num(s.variants.decaf) })).status).toBe(400);
  });

  it("pause and resume", async () => {
    expectRedirect(await post(`/s/${a()}/pause`, {}), "paused");
    expect([(await sim(s.contracts.a.id)).status, (await mirror(s.contracts.a.id)).status]).toEqual(["PAUSED", "PAUSED"]);
    expect(await (await get(`/s/${a()}`)).text()).toContain("Resume subscription");
    expectRedirect(await post(`/s/${a()}/resume`, {}), "resumed");
    expect([(await sim(s.contracts.a.id)).status, (await mirror(s.contracts.a.id)).status]).toEqual(["ACTIVE", "ACTIVE"]);
  });

  it("the payment-update e-mail is sent by the platform", async () => {
    const emails = () => stack.control.call<unknown[]>("GET", `${stack.control.shop(s.domain)}/emails`);
    const n = (await emails()).length;
    expectRedirect(await post(`/s/${a()}/payment-email`, {}), "payment_email");
    expect((await emails()).length).toBe(n + 1);
  });

  it("e-mail preferences are saved from the form (an unchecked box is off)", async () => {
    const res = await post("/preferences", { reminders: "on", orders: "on" });
    expect([res.status, res.headers.get("location")]).toEqual([303, `${PREFIX}?done=preferences`]);
    const row = await prisma.notificationPreference.findMany({ where: { shopId: s.shopId, customerGid: s.customers.a } });
    expect(row.length).toBeGreaterThan(0);
    const page = await (await get("")).text();
    expect(page).toMatch(/name="box" value="on">/);
    expect(page).toMatch(/name="reminders" value="on" checked>/);
  });

  it("the cancel flow's pause offer pauses instead and records shown and accepted; a cancel records its reason", async () => {
    await prisma.portalConfig.upsert({
      where: { shopId: s.shopId },
      create: { shopId: s.shopId, cancelReasons: ["Too expensive", "Too much coffee"] },
      update: { cancelReasons: ["Too expensive", "Too much coffee"] },
    });
    const flow = await (await get(`/s/${a()}/cancel`)).text();
    expect(flow).toContain("Pause instead");
    expect(flow).toContain("Too much coffee");
    expectRedirect(await post(`/s/${a()}/cancel`, { choice: "pause" }), "saved_pause");
    expect((await sim(s.contracts.a.id)).status).toBe("PAUSED");
    const events = await prisma.saveEvent.findMany({ where: { shopId: s.shopId, contractGid: s.contracts.a.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.offerType, e.eventType])).toEqual([
      ["pause", "shown"],
      ["skip", "shown"],
      ["pause", "accepted"],
    ]);
    expect(events[2].preservedRevenueCents).toBeGreaterThan(0);

    expect((await post(`/s/${a()}/cancel`, { choice: "cancel", reason: "Not a listed reason" })).status).toBe(400);
    expectRedirect(await post(`/s/${a()}/cancel`, { choice: "cancel", reason: "Too much coffee" }), "cancelled");
    expect([(await sim(s.contracts.a.id)).status, (await mirror(s.contracts.a.id)).status]).toEqual(["CANCELLED", "CANCELLED"]);
    const reasons = await prisma.cancelReason.findMany({ where: { shopId: s.shopId, contractGid: s.contracts.a.id } });
    expect(reasons.map((r) => r.reason)).toEqual(["Too much coffee"]);
  });

  it("the box pick: the page offers the period's menu, a pick is applied to the contract, a bad size is refused", async () => {
    const box = num(s.contracts.aBox.id);
    const detail = await (await get(`/s/${box}`)).text();
    expect(detail).toContain(`href="${PREFIX}/s/${box}/box"`);
    expect(await (await get(`/s/${a()}`)).text()).not.toContain('/box"');
    const page = await (await get(`/s/${box}/box`)).text();
    for (const v of s.variants.menu) expect(page).toContain(`name="qty_${num(v)}"`);
    const [cookie, brownie] = s.variants.menu.map(num);
    const res = await post(`/s/${box}/box`, { [`qty_${cookie}`]: "2", [`qty_${brownie}`]: "1", [`qty_${num(s.variants.menu[2])}`]: "0" });
    expect([res.status, res.headers.get("location")]).toEqual([303, `${PREFIX}/s/${box}/box?done=box`]);
    const attrs = (await sim(s.contracts.aBox.id)).lines[0].customAttributes as { key: string; value: string }[];
    expect(attrs.find((x) => x.key === "_box_items")?.value).toBe(`${s.variants.menu[0]}:2,${s.variants.menu[1]}:1`);
    expect(await (await get(`/s/${box}/box`)).text()).toMatch(new RegExp(`name="qty_${cookie}" type="number" min="0" max="100" value="2"`));
    // Five items: over the bundle's maximum of four; nothing changes.
    expect((await post(`/s/${box}/box`, { [`qty_${cookie}`]: "5" })).status).toBe(400);
    expect((await post(`/s/${num(s.contracts.bBox.id)}/box`, { [`qty_${cookie}`]: "2" })).status).toBe(403);
  });

  it("a hidden action is absent from the page and refused when posted", async () => {
    const box = num(s.contracts.aBox.id);
    await prisma.portalConfig.update({ where: { shopId: s.shopId }, data: { hiddenActions: ["skip", "cancel"] } });
    try {
      const html = await (await get(`/s/${box}`)).text();
      expect(html).toContain("Pause subscription");
      expect(html).not.toContain("Skip next delivery");
      expect(html).not.toContain("Cancel subscription");
      const before = await sim(s.contracts.aBox.id);
      expect((await post(`/s/${box}/skip`, {})).status).toBe(403);
      expect((await post(`/s/${box}/cancel`, { choice: "cancel" })).status).toBe(403);
      expect((await get(`/s/${box}/cancel`)).status).toBe(403);
      const after = await sim(s.contracts.aBox.id);
      expect([after.status, after.nextBillingDate]).toEqual([before.status, before.nextBillingDate]);
    } finally {
      await prisma.portalConfig.update({ where: { shopId: s.shopId }, data: { hiddenActions: [] } });
    }
  });

  it("store text cannot run Liquid in the theme: braces are escaped", async () => {
    await prisma.contract.update({
      where: { shopId_contractGid: { shopId: s.shopId, contractGid: s.contracts.aBox.id } },
      data: { productTitle: "{{ shop.secret }}{% raw %}" },
    });
    const html = await (await get(`/s/${num(s.contracts.aBox.id)}`)).text();
    expect(html).not.toContain("{{ shop.secret }}");
    expect(html).toContain("&#123;&#123; shop.secret &#125;&#125;&#123;&#37; raw &#37;&#125;");
  });
});
