// The selection cutoff (docs/decisions/106-box-cutoff-job.md) with real BullMQ workers against the
// simulator: the hourly tick queues one job per box shop; past the cutoff the job writes the valid
// pick, or the fallback box when there is none or the pick names a dropped item, onto the contract's
// box line through the draft flow, records which, and a re-run changes nothing. After the cutoff the
// Customer API's pick is selection_closed. Shopify's refusal is a Risk Center item until a later run applies.
import { prisma } from "../../../app/db.server";
import { saveMenu } from "../../../app/domain/catalog/box-menu-builder.server";
import { createBundle } from "../../../app/domain/catalog/bundle-builder.server";
import type { BoxSizeForm } from "../../../app/domain/catalog/bundle-form";
import { queueBoxCutoffs, type CutoffReport } from "../../../app/domain/customer/box-cutoff.server";
import { saveCustomerBox } from "../../../app/domain/customer/box.server";
import { openRisks } from "../../../app/domain/shop/risks.server";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { QUEUES, queue } from "../../../app/infra/queues.server";
import { createPlanGroup } from "../../support/fixtures";
import { eventually, useStack } from "../../support/stack";

const stack = useStack({}, 120_000);
const DAY = 86_400_000;

type SimContract = { id: string; revisionId: number; lines: { customAttributes?: { key: string; value: string }[] }[] };

/**
 * A box shop: bundle (cutoff 3 days, boxes of 2 unless `sizes`), a published menu for the period of
 * `charge`, and `n` subscribers charged then; `sizeOf(i)` is the size subscriber i's box line names.
 */
async function boxShop(n: number, charge: Date, opts: { sizes?: BoxSizeForm[]; sizeOf?: (i: number) => string | undefined } = {}) {
  const { domain, shopId } = await stack.installShop();
  const shop = stack.control.shop(domain);
  const product = await stack.control.call<{ variants: { id: string }[] }>("POST", `${shop}/products`, {
    title: "Snacks",
    variants: [
      { title: "Crisps", price: "3.00" },
      { title: "Nuts", price: "4.50" },
      { title: "Figs", price: "5.00" },
    ],
  });
  const v = product.variants.map((x) => x.id);
  const group = await stack.control.call<{ id: string; sellingPlans: { id: string }[] }>("POST", `${shop}/selling-plan-groups`, {
    name: "Snack box",
    plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
    variantIds: [v[0]],
  });
  await createPlanGroup(shopId, { groupGid: group.id, name: "Snack box", sellingPlanGids: [group.sellingPlans[0].id] });
  const ctx = { shopId, shopDomain: domain };
  const b = await createBundle(ctx, {
    title: "Snack box",
    kind: "BUILD_A_BOX",
    groupGid: group.id,
    selectionCutoffDays: 3,
    sizes: opts.sizes ?? [{ label: "Two", min: 2, max: 2, price: "9.00" }],
  });
  if (!b.ok) throw new Error(JSON.stringify(b.errors));
  const period = charge.toISOString().slice(0, 7);
  const menu = await saveMenu(
    ctx,
    b.bundleId,
    {
      period,
      items: [
        { variantId: v[0], maxQuantity: 2, fallbackQuantity: 1, quantity: null },
        { variantId: v[2], maxQuantity: 2, fallbackQuantity: 1, quantity: null },
      ],
    },
    { publish: true, now: new Date(charge.getTime() - 20 * DAY) },
  );
  if (!menu.ok) throw new Error(JSON.stringify(menu.errors));
  const subscribers: { customerId: string; contractId: string }[] = [];
  for (let i = 0; i < n; i++) {
    const size = opts.sizeOf?.(i);
    const customer = await stack.control.call<{ id: string }>("POST", `${shop}/customers`, {
      email: `cut${i}-${Date.now()}@example.com`,
      paymentMethod: { kind: "credit_card" },
    });
    const c = await stack.control.call<{ id: string }>("POST", `${shop}/contracts`, {
      customerId: customer.id,
      status: "ACTIVE",
      nextBillingDate: charge.toISOString(),
      billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
      lines: [
        {
          variantId: v[0],
          quantity: 1,
          sellingPlanId: group.sellingPlans[0].id,
          customAttributes: size === undefined ? undefined : [{ key: "_box_size", value: size }],
        },
      ],
      webhooks: false,
    });
    await reconcileContract(domain, c.id);
    subscribers.push({ customerId: customer.id, contractId: c.id });
  }
  return { domain, shopId, shop, v, period, bundleId: b.bundleId, subscribers };
}

/** Runs the hourly tick at `now` and waits for this shop's job; answers its report. */
async function tick(domain: string, now: Date): Promise<CutoffReport> {
  await queueBoxCutoffs(now);
  const id = `box-cutoff-${domain}-${now.toISOString().slice(0, 13)}`;
  return eventually(async () => {
    const job = await queue(QUEUES.sweeps).getJob(id);
    if (job && (await job.isFailed())) throw new Error(job.failedReason);
    return job && (await job.isCompleted()) ? (job.returnvalue as CutoffReport) : null;
  }, 30_000);
}

const attributes = async (shop: string, contractId: string) => {
  const c = await stack.control.call<SimContract>("GET", `${shop}/contracts/${encodeURIComponent(contractId)}`);
  return { revision: c.revisionId, attrs: Object.fromEntries((c.lines[0].customAttributes ?? []).map((a) => [a.key, a.value])) };
};

describe("the box cutoff job", () => {
  it("applies the valid pick to one contract and the fallback to those without one or whose pick names a dropped item; a re-run changes nothing", async () => {
    const charge = new Date(Date.now() + 2 * DAY); // the 3-day cutoff has passed
    const s = await boxShop(3, charge);
    const [picked, never, dropped] = s.subscribers;
    await prisma.boxSelection.createMany({
      data: [
        { shopId: s.shopId, contractGid: picked.contractId, period: s.period, items: [{ variant_id: s.v[2], quantity: 2 }] },
        { shopId: s.shopId, contractGid: dropped.contractId, period: s.period, items: [{ variant_id: s.v[1], quantity: 2 }] }, // Nuts: not on the menu
      ],
    });
    // Picking is closed: the cutoff has passed.
    await expect(
      saveCustomerBox({
        shopId: s.shopId,
        shopDomain: s.domain,
        customerId: picked.customerId,
        contractGid: picked.contractId,
        items: [{ variantId: s.v[0], quantity: 2 }],
      }),
    ).rejects.toMatchObject({
      code: "selection_closed",
    });

    const first = await tick(s.domain, new Date());
    expect(first).toMatchObject({ applied: 3, picks: 1, fallbacks: 2, refused: 0, deferred: 0 });
    const a = await attributes(s.shop, picked.contractId);
    expect(a.attrs).toEqual({ _box_period: s.period, _box_items: `${s.v[2]}:2`, _box_source: "pick" });
    for (const sub of [never, dropped]) {
      expect((await attributes(s.shop, sub.contractId)).attrs).toEqual({
        _box_period: s.period,
        _box_items: `${s.v[0]}:1,${s.v[2]}:1`,
        _box_source: "fallback",
      });
    }
    const rows = await prisma.boxApplication.findMany({ where: { shopId: s.shopId }, orderBy: { contractGid: "asc" } });
    expect(rows.map((r) => [r.contractGid, r.source, r.status]).sort()).toEqual(
      [
        [picked.contractId, "PICK", "APPLIED"],
        [never.contractId, "FALLBACK", "APPLIED"],
        [dropped.contractId, "FALLBACK", "APPLIED"],
      ].sort(),
    );

    // Again, an hour later: nothing is written twice (Shopify's revision stays put).
    const again = await tick(s.domain, new Date(Date.now() + 3_600_000));
    expect(again).toMatchObject({ applied: 0, refused: 0 });
    expect((await attributes(s.shop, picked.contractId)).revision).toBe(a.revision);
    // Even with a clock before the cutoff, a settled box is closed to picks.
    await expect(
      saveCustomerBox({
        shopId: s.shopId,
        shopDomain: s.domain,
        customerId: picked.customerId,
        contractGid: picked.contractId,
        items: [{ variantId: s.v[0], quantity: 2 }],
        now: new Date(charge.getTime() - 10 * DAY),
      }),
    ).rejects.toMatchObject({ code: "selection_closed" });
  });

  it("holds a pick to the size the box line bought, in the Customer API and at the cutoff; a line naming no size keeps the outer bounds", async () => {
    const charge = new Date(Date.now() + 2 * DAY); // the job's cutoff has passed; the API calls below run before it
    const sizes = [
      { label: "Small", min: 2, max: 2, price: "9.00" },
      { label: "Large", min: 4, max: 4, price: "16.00" },
    ];
    const bought = ["Small", "large ", undefined]; // the third line names no size (a contract from before sizes were recorded)
    const s = await boxShop(3, charge, { sizes, sizeOf: (i) => bought[i] });
    const [small, large, unnamed] = s.subscribers;
    const pick = (sub: { customerId: string; contractId: string }, items: [string, number][]) =>
      saveCustomerBox({
        shopId: s.shopId,
        shopDomain: s.domain,
        customerId: sub.customerId,
        contractGid: sub.contractId,
        items: items.map(([variantId, quantity]) => ({ variantId, quantity })),
        now: new Date(charge.getTime() - 5 * DAY),
      });
    const [crisps, figs] = [s.v[0], s.v[2]];
    // Four items fit the bundle's outer bounds (2 to 4), not the Small box bought.
    await expect(
      pick(small, [
        [crisps, 2],
        [figs, 2],
      ]),
    ).rejects.toMatchObject({
      code: "invalid_request",
      message: "Your Small box holds at most 2 items; this pick has 4.",
    });
    await expect(
      pick(large, [
        [crisps, 1],
        [figs, 1],
      ]),
    ).rejects.toMatchObject({
      code: "invalid_request",
      message: "Your Large box holds at least 4 items; this pick has 2.",
    });
    await pick(small, [[figs, 2]]);
    await pick(large, [
      [crisps, 2],
      [figs, 2],
    ]);
    await pick(unnamed, [
      [crisps, 2],
      [figs, 1],
    ]);
    expect((await attributes(s.shop, small.contractId)).attrs).toMatchObject({ _box_size: "Small", _box_items: `${figs}:2` });

    // A pick stored before the size was checked (four items on the Small box) is not applied: the fallback is.
    await prisma.boxSelection.update({
      where: { shopId_contractGid_period: { shopId: s.shopId, contractGid: small.contractId, period: s.period } },
      data: {
        items: [
          { variant_id: crisps, quantity: 2 },
          { variant_id: figs, quantity: 2 },
        ],
      },
    });
    expect(await tick(s.domain, new Date())).toMatchObject({ applied: 3, picks: 2, fallbacks: 1, refused: 0 });
    expect((await attributes(s.shop, small.contractId)).attrs).toEqual({
      _box_size: "Small",
      _box_period: s.period,
      _box_items: `${crisps}:1,${figs}:1`,
      _box_source: "fallback",
    });
    expect((await attributes(s.shop, large.contractId)).attrs).toMatchObject({ _box_size: "large ", _box_items: `${crisps}:2,${figs}:2`, _box_source: "pick" });
    expect((await attributes(s.shop, unnamed.contractId)).attrs).toEqual({ _box_period: s.period, _box_items: `${crisps}:2,${figs}:1`, _box_source: "pick" });
  });

  it("leaves subscribers whose cutoff is still ahead alone", async () => {
    const s = await boxShop(1, new Date(Date.now() + 10 * DAY));
    expect(await tick(s.domain, new Date())).toMatchObject({ applied: 0, refused: 0 });
    expect((await attributes(s.shop, s.subscribers[0].contractId)).attrs).toEqual({});
  });

  it("a period past its cutoff with no published menu is a Risk Center item until the menu is published and the next run applies", async () => {
    const s = await boxShop(2, new Date(Date.now() + 2 * DAY));
    await prisma.bundleBox.updateMany({ where: { bundleId: s.bundleId, period: s.period }, data: { published: false, publishedAt: null } });
    expect(await tick(s.domain, new Date())).toMatchObject({ applied: 0, noMenu: 2, refused: 0 });
    const risk = (await openRisks(s.shopId)).find((r) => r.id === `box_no_menu:${s.bundleId}:${s.period}`);
    expect(risk).toMatchObject({
      severity: "high",
      area: "Bundles",
      title: `2 subscribers of Snack box are past the ${s.period} selection cutoff, and no ${s.period} menu is published`,
      link: { url: `/app/bundles/${s.bundleId}` },
    });

    await prisma.bundleBox.updateMany({ where: { bundleId: s.bundleId, period: s.period }, data: { published: true, publishedAt: new Date() } });
    expect(await tick(s.domain, new Date(Date.now() + 3_600_000))).toMatchObject({ applied: 2, fallbacks: 2, noMenu: 0 });
    expect((await openRisks(s.shopId)).some((r) => r.id.startsWith("box_no_menu:"))).toBe(false);
  });

  it("records Shopify's refusal as a Risk Center item, and the next run applies and clears it", async () => {
    const s = await boxShop(1, new Date(Date.now() + 2 * DAY));
    await stack.control.call("POST", `${s.shop}/failures`, {
      operation: "subscriptionDraftCommit",
      userErrors: [{ field: null, message: "The contract changed since the draft was made", code: "STALE_CONTRACT" }],
    });
    expect(await tick(s.domain, new Date())).toMatchObject({ applied: 0, refused: 1 });
    const risks = await openRisks(s.shopId);
    expect(risks.find((r) => r.id.startsWith("box_refused:"))).toMatchObject({
      severity: "high",
      area: "Bundles",
      title: expect.stringContaining("The contract changed since the draft was made"),
    });
    expect((await attributes(s.shop, s.subscribers[0].contractId)).attrs).toEqual({});

    expect(await tick(s.domain, new Date(Date.now() + 3_600_000))).toMatchObject({ applied: 1, fallbacks: 1, refused: 0 });
    expect((await openRisks(s.shopId)).some((r) => r.id.startsWith("box_refused:"))).toBe(false);
  });
});
