// Gift subscriptions end to end below the browser (docs/decisions/136-gift-lifecycle.md): bought
// through the simulated storefront with the gift block's line properties, recorded at contract
// creation (gift.created), the claim e-mail on the chosen day through the real outbox and mailbox
// (gift.sent), the claim page over real HTTP (GET claims nothing, POST once, cross-site refused,
// one page for unknown and used tokens), the address on the simulator's contract through the draft
// flow (gift.claimed), the last prepaid charge (gift.ended), expiry with the PAUSE policy
// (gift.expired) and a bounce told to the gifter, corrected and resent. The token is nowhere in
// the database; no gift event carries a name, an e-mail or an address.
import { prisma } from "../../../app/db.server";
import { createPlanGroup } from "../../../app/domain/catalog/plan-builder.server";
import type { PlanGroupForm } from "../../../app/domain/catalog/plan-form";
import { resendGift, runGiftSweep, saveGiftSettings } from "../../../app/domain/gifts/delivery.server";
import { runBilling } from "../../../app/domain/renewals/charge.server";
import { fixedClock } from "../../../app/domain/renewals/clock.server";
import { mailTo, rowReaches, useMailbox, waitForMail } from "../../support/mail";
import { eventually, useStack } from "../../support/stack";

const stack = useStack({}, 60_000);
const box = useMailbox();

const form = (productId: string): PlanGroupForm => ({
  name: "Coffee gift",
  merchantCode: "coffee-gift",
  productIds: [productId],
  variantIds: [],
  schedule: { mode: "rolling", anchorDay: 1, anchorMonths: [], cutoffDays: 0, preAnchorBehavior: "ASAP", shipDay: null },
  plans: [
    {
      id: null,
      interval: "MONTH",
      intervalCount: 1,
      pricing: { type: "PERCENTAGE", value: "0", afterCycle: null, afterType: null, afterValue: null },
      minCycles: null,
      maxCycles: 2,
      giftable: true,
      label: "",
    },
  ],
});

const num = (gid: string) => gid.split("/").pop();

async function setup() {
  const { domain, shopId } = await stack.installShop();
  const product = await stack.control.call<{ id: string; variants: { id: string }[] }>("POST", `${stack.control.shop(domain)}/products`, {
    title: "House coffee",
    variants: [{ title: "250 g", price: "20.00" }],
  });
  const r = await createPlanGroup({ shopId, shopDomain: domain }, form(product.id));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const plan = await prisma.sellingPlan.findFirstOrThrow({ where: { group: { groupGid: r.groupGid } } });
  return { domain, shopId, variantId: product.variants[0].id, planGid: plan.sellingPlanGid };
}

async function buyGift(s: Awaited<ReturnType<typeof setup>>, properties: Record<string, string>, email = "ada@example.com") {
  const base = `${stack.sim.url}/storefront/${s.domain}`;
  const add = await fetch(`${base}/cart/add.js`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ id: num(s.variantId), quantity: 1, selling_plan: num(s.planGid), properties }] }),
  });
  expect(add.status).toBe(200);
  const cookie = add.headers.get("set-cookie")!.split(";")[0];
  const paid = await fetch(`${base}/checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json", cookie },
    body: JSON.stringify({ email, first_name: "Ada", last_name: "Lovelace" }),
  });
  expect(paid.status).toBe(200);
  const body = (await paid.json()) as { contract_ids: string[] };
  const contractGid = body.contract_ids[0];
  const gift = await stack.settled(s.domain, () => prisma.gift.findFirst({ where: { shopId: s.shopId, contract: { contractGid } } }));
  return { contractGid, gift };
}

const claimPath = (text: string) => {
  const m = /(https?:\/\/\S+\/gifts\/claim\/([A-Za-z0-9_-]+))/.exec(text);
  if (!m) throw new Error(`no claim link in: ${text}`);
  return { url: `${stack.appUrl}${new URL(m[1]).pathname}`, token: m[2] };
};

async function giftEvents(shopId: string) {
  return prisma.event.findMany({ where: { shopId, type: { startsWith: "gift." } }, orderBy: { createdAt: "asc" } });
}

/** Every column of every table in the test database, as text, searched for `needle`. */
async function tablesHolding(needle: string): Promise<string[]> {
  const tables = await prisma.$queryRaw<{ t: string }[]>`SELECT tablename::text AS t FROM pg_tables WHERE schemaname = 'public'`;
  const found: string[] = [];
  for (const { t } of tables) {
    const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${t}" x WHERE x::text LIKE '%' || $1 || '%'`, needle);
    if (row.n > 0n) found.push(t);
  }
  return found;
}

const FORM = {
  firstName: "Grace",
  lastName: "Hopper",
  address1: "12 Harbour Road",
  address2: "",
  city: "Halifax",
  provinceCode: "NS",
  countryCode: "CA",
  zip: "B3H 1A1",
};

async function post(url: string, fields: Record<string, string>, cookie: string | null, origin?: string) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

describe("gift subscriptions", () => {
  it("bought, announced on the chosen day, claimed once through the page, ended by its last prepaid charge", async () => {
    const s = await setup();
    stack.sim.core.now = () => new Date("2026-11-27T15:00:00Z");
    const { contractGid, gift } = await buyGift(s, {
      _gift_recipient_name: "Grace Hopper",
      _gift_recipient_email: "Grace@Example.com",
      _gift_message: "Happy birthday!",
      _gift_send_on: "2026-12-01",
    });
    stack.sim.core.now = () => new Date();
    expect(gift).toMatchObject({
      kind: "PREPAID",
      status: "PENDING",
      prepaidCharges: 2,
      chargesRun: 1,
      recipientEmail: "grace@example.com",
      gifterEmail: "ada@example.com",
    });
    // 09:00 on the chosen day in the shop's zone (UTC here).
    expect(gift.sendAt).toEqual(new Date("2026-12-01T09:00:00Z"));
    // The contract stays the gifter's.
    const contract = await prisma.contract.findFirstOrThrow({ where: { contractGid } });
    const sim = await stack.control.call<{ customerId: string }>("GET", `${stack.control.shop(s.domain)}/contracts/${encodeURIComponent(contractGid)}`);
    expect(contract.customerGid).toBe(sim.customerId);

    // Not before the day; on the day, one claim e-mail.
    expect(await runGiftSweep({ shopId: s.shopId, now: new Date("2026-12-01T08:59:00Z") })).toMatchObject({ sent: 0 });
    expect(await runGiftSweep({ shopId: s.shopId, now: new Date("2026-12-01T09:00:00Z") })).toMatchObject({ sent: 1 });
    expect(await runGiftSweep({ shopId: s.shopId, now: new Date("2026-12-01T09:05:00Z") })).toMatchObject({ sent: 0 });
    const [mail] = await waitForMail(box, "grace@example.com");
    expect(mail.subject).toBe("Ada sent you a gift from " + s.domain.replace(".myshopify.com", ""));
    expect(mail.text).toContain("Happy birthday!");
    const { url, token } = claimPath(mail.text);
    expect(token.length).toBeGreaterThanOrEqual(43);

    // GET, repeated, claims nothing.
    const first = await fetch(url);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain("Ada sent you a gift");
    expect(html).toContain("House coffee");
    expect((await fetch(url)).status).toBe(200);
    expect((await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } })).status).toBe("SENT");
    const cookie = first.headers.get("set-cookie")!.split(";")[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1];

    // A cross-site POST (no cookie, a foreign Origin) is refused and changes nothing.
    expect((await post(url, { ...FORM, csrf }, null)).status).toBe(403);
    expect((await post(url, { ...FORM, csrf }, cookie, "https://evil.example")).status).toBe(403);
    // An incomplete address is answered on the page.
    expect((await post(url, { ...FORM, city: "", csrf }, cookie)).status).toBe(422);
    expect((await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } })).status).toBe("SENT");

    const claimed = await post(url, { ...FORM, csrf }, cookie);
    expect(claimed.status).toBe(200);
    expect(await claimed.text()).toContain("Your gift is on its way");
    const after = await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } });
    expect(after).toMatchObject({ status: "CLAIMED", claimTokenHash: null });
    const simAfter = await stack.control.call<{ deliveryAddress: Record<string, unknown> }>(
      "GET",
      `${stack.control.shop(s.domain)}/contracts/${encodeURIComponent(contractGid)}`,
    );
    expect(simAfter.deliveryAddress).toMatchObject({
      firstName: "Grace",
      lastName: "Hopper",
      address1: "12 Harbour Road",
      city: "Halifax",
      province: "NS",
      country: "CA",
      zip: "B3H 1A1",
    });

    // Used and unknown tokens: the same page, the same status; a second POST changes nothing.
    const used = await fetch(url);
    const unknown = await fetch(`${stack.appUrl}/gifts/claim/${"x".repeat(43)}`);
    expect([used.status, unknown.status]).toEqual([404, 404]);
    expect(await used.text()).toBe(await unknown.text());
    expect((await post(url, { ...FORM, city: "Elsewhere", csrf }, cookie)).status).toBe(404);
    expect((await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } })).claimedAt).toEqual(after.claimedAt);

    // The last prepaid charge (the checkout paid the first of 2) ends the gift.
    const row = await prisma.contract.findFirstOrThrow({ where: { contractGid } });
    await runBilling(s.domain, { clock: fixedClock(new Date(row.nextBillingAt!.getTime() + 3_600_000)) });
    await stack.settled(s.domain, () => prisma.gift.findFirst({ where: { id: gift.id, status: "ENDED" } }), 30_000);

    const events = await giftEvents(s.shopId);
    expect(events.map((e) => e.type)).toEqual(["gift.created", "gift.sent", "gift.claimed", "gift.ended"]);
    expect(events[0].data).toEqual({ gift_id: gift.id, kind: "prepaid", status: "pending", contract_id: contractGid });
    for (const e of events) expect(JSON.stringify(e.data)).not.toMatch(/@|Grace|Hopper|Ada|Lovelace|Harbour|Halifax|birthday/i);
    // The token is stored nowhere (its hash was, until the claim cleared it).
    expect(await tablesHolding(token)).toEqual([]);
  }, 120_000);

  it("a purchase without a recipient, or on a plan that is not giftable, is no gift", async () => {
    const s = await setup();
    await prisma.sellingPlan.updateMany({ where: { sellingPlanGid: s.planGid }, data: { settings: { giftable: false, maxCycles: 2 } } });
    const base = `${stack.sim.url}/storefront/${s.domain}`;
    for (const properties of [{ _gift_recipient_email: "grace@example.com" }, { _gift_recipient_email: "" }]) {
      const add = await fetch(`${base}/cart/add.js`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ items: [{ id: num(s.variantId), quantity: 1, selling_plan: num(s.planGid), properties }] }),
      });
      const cookie = add.headers.get("set-cookie")!.split(";")[0];
      const paid = await fetch(`${base}/checkout`, {
        method: "POST",
        headers: { "Content-Type": "application/json", cookie },
        body: JSON.stringify({ email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" }),
      });
      const contractGid = ((await paid.json()) as { contract_ids: string[] }).contract_ids[0];
      await stack.settled(s.domain, () =>
        prisma.event.findFirst({ where: { shopId: s.shopId, type: "subscription.created", data: { path: ["contract_id"], equals: contractGid } } }),
      );
    }
    expect(await prisma.gift.count({ where: { shopId: s.shopId } })).toBe(0);
    expect(await giftEvents(s.shopId)).toEqual([]);
  }, 60_000);

  it("an unclaimed gift expires under the PAUSE policy (gift.expired, contract paused); a resend reopens it and the claim resumes it", async () => {
    const s = await setup();
    await saveGiftSettings(s.shopId, { expiryDays: 7, expiryPolicy: "PAUSE" });
    const { contractGid, gift } = await buyGift(s, { _gift_recipient_email: "linus@example.com" });
    const now = Date.now();
    expect(await runGiftSweep({ shopId: s.shopId, now: new Date(now) })).toMatchObject({ sent: 1 });
    await waitForMail(box, "linus@example.com");
    expect(await runGiftSweep({ shopId: s.shopId, now: new Date(now + 6 * 86_400_000) })).toMatchObject({ expired: 0 });
    expect(await runGiftSweep({ shopId: s.shopId, now: new Date(now + 8 * 86_400_000) })).toMatchObject({ expired: 1 });
    expect(await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } })).toMatchObject({ status: "EXPIRED", expiryAction: "paused" });
    const sim = () =>
      stack.control.call<{ status: string; deliveryAddress: { city: string } }>(
        "GET",
        `${stack.control.shop(s.domain)}/contracts/${encodeURIComponent(contractGid)}`,
      );
    expect((await sim()).status).toBe("PAUSED");
    const expired = (await giftEvents(s.shopId)).find((e) => e.type === "gift.expired")!;
    expect(Object.keys(expired.data as object).sort()).toEqual(["expired_at", "gift_id"]);

    // The merchant resends: a new link; the old one is dead; the claim resumes the contract.
    expect(await resendGift(s.shopId, gift.id)).toEqual({ ok: true });
    const mails = await waitForMail(box, "linus@example.com", 2);
    const oldLink = claimPath(mails[0].text).url;
    const { url } = claimPath(mails[1].text);
    expect((await fetch(oldLink)).status).toBe(404);
    const page = await fetch(url);
    const cookie = page.headers.get("set-cookie")!.split(";")[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
    expect((await post(url, { ...FORM, csrf }, cookie)).status).toBe(200);
    expect(await sim()).toMatchObject({ status: "ACTIVE", deliveryAddress: { city: "Halifax" } });
  }, 90_000);

  it("a bounced claim e-mail reaches the gifter and flags the gift; the corrected address gets the resend", async () => {
    const s = await setup();
    box.refuse("nobody@example.com", 550);
    const { gift } = await buyGift(s, { _gift_recipient_email: "nobody@example.com" }, "bea@example.com");
    await runGiftSweep({ shopId: s.shopId });
    await rowReaches(s.shopId, { event: "gift_claim" }, ["bounced"]);
    expect(await runGiftSweep({ shopId: s.shopId })).toMatchObject({ bounced: 1 });
    expect(await runGiftSweep({ shopId: s.shopId })).toMatchObject({ bounced: 0 });
    const [told] = await waitForMail(box, "bea@example.com");
    expect(told.subject).toBe("We couldn't deliver your gift's e-mail to nobody@example.com");
    expect((await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } })).bouncedAt).not.toBeNull();

    expect(await resendGift(s.shopId, gift.id, "not-an-address")).toEqual({ ok: false, reason: "invalid_email" });
    expect(await resendGift(s.shopId, gift.id, "somebody@example.com")).toEqual({ ok: true });
    const [resent] = await waitForMail(box, "somebody@example.com");
    expect(resent.text).toContain("/gifts/claim/");
    expect(await prisma.gift.findUniqueOrThrow({ where: { id: gift.id } })).toMatchObject({
      recipientEmail: "somebody@example.com",
      bouncedAt: null,
      sendCount: 2,
    });
    expect(await mailTo(box, "nobody@example.com")).toEqual([]);
    // Another shop cannot resend it.
    const other = await stack.installShop();
    expect(await resendGift(other.shopId, gift.id, "x@example.com")).toEqual({ ok: false, reason: "not_found" });
    await eventually(async () => (await giftEvents(s.shopId)).filter((e) => e.type === "gift.sent").length === 2);
  }, 90_000);
});
