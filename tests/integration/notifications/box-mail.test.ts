// Build-a-box mail (docs/email.md, "Box mail"): `box_menu_published` when a period's menu is published
// (publishBoxMenu, one outbox row per active subscriber in the publishing transaction) and the
// daily `box_reminder` for subscribers without a pick whose cutoff is within 2 days. Category
// `box`: the customer's preference gates both, and both carry List-Unsubscribe.
import { prisma } from "../../../app/db.server";
import { publishBoxMenu } from "../../../app/domain/catalog/box-menu.server";
import { normalisePreferences, setNotificationPreferences } from "../../../app/domain/customer/notification-preferences.server";
import { pickUntil, queueBoxReminders } from "../../../app/domain/notifications/box-mail.server";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { createBundle, createBundleBox, createPlanGroup } from "../../support/fixtures";
import { mailTo, rowReaches, uniqueAddress, useMailbox, waitForMail } from "../../support/mail";
import { useStack } from "../../support/stack";

const stack = useStack({}, 120_000);
const box = useMailbox();

const DAY = 86_400_000;
const TZ = "America/New_York";
const CUTOFF_DAYS = 3;

type SimProduct = { id: string; variants: { id: string }[] };
type SimGroup = { id: string; sellingPlans: { id: string }[] };

/** A shop with a build-a-box bundle (cutoff 3 days), an unpublished box for `period` and `subscribers` e-mailable box contracts. */
async function boxShop(charges: Date[], period: string) {
  const { domain, shopId } = await stack.installShop();
  await prisma.shop.update({ where: { id: shopId }, data: { ianaTimezone: TZ } });
  const shop = stack.control.shop(domain);
  const product = await stack.control.call<SimProduct>("POST", `${shop}/products`, { title: "Treats", variants: [{ title: "Box", price: "30.00" }] });
  const group = await stack.control.call<SimGroup>("POST", `${shop}/selling-plan-groups`, {
    name: "Treat box",
    plans: [{ name: "Monthly box", interval: "MONTH", intervalCount: 1 }],
    variantIds: [product.variants[0].id],
  });
  const local = await createPlanGroup(shopId, { groupGid: group.id, name: "Treat box", sellingPlanGids: [group.sellingPlans[0].id] });
  const bundle = await createBundle({ shopId, groupId: local.id, title: "Treat box", kind: "BUILD_A_BOX", selectionCutoffDays: CUTOFF_DAYS });
  await createBundleBox({
    bundleId: bundle.id,
    period,
    published: false,
    items: [{ variantGid: product.variants[0].id, productTitle: "Treats", variantTitle: "Cookie", imageUrl: null, priceCents: 300, quantity: null }],
  });
  const subscribers = [];
  for (const next of charges) {
    const email = uniqueAddress("box");
    const customer = await stack.control.call<{ id: string }>("POST", `${shop}/customers`, { email, paymentMethod: { kind: "credit_card" } });
    const contract = await stack.control.call<{ id: string }>("POST", `${shop}/contracts`, {
      customerId: customer.id,
      status: "ACTIVE",
      nextBillingDate: next.toISOString(),
      billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
      lines: [{ variantId: product.variants[0].id, quantity: 1, sellingPlanId: group.sellingPlans[0].id }],
      webhooks: false,
    });
    await reconcileContract(domain, contract.id);
    subscribers.push({ email, customerGid: customer.id, contractGid: contract.id, next });
  }
  return { domain, shopId, bundleId: bundle.id, subscribers };
}

describe("box mail", () => {
  it("publishing a menu e-mails each active box subscriber once, with the period and the pick-until date; box off gets none", async () => {
    const next = new Date("2031-03-14T15:00:00Z");
    const { shopId, bundleId, subscribers } = await boxShop([next, next, next], "2031-03");
    const [a, b, off] = subscribers;
    await setNotificationPreferences({ shopId, customerId: off.customerGid, values: normalisePreferences({ box: false }) });
    const now = new Date("2031-03-01T12:00:00Z");

    const first = await publishBoxMenu(shopId, bundleId, "2031-03", now);
    expect(first.queued).toBe(3);
    expect((await prisma.bundleBox.findFirstOrThrow({ where: { bundleId, period: "2031-03" } })).published).toBe(true);

    const until = pickUntil(new Date(next.getTime() - CUTOFF_DAYS * DAY), TZ);
    expect(until).toBe("March 11, 2031 at 11:00 AM"); // 15:00 UTC is 11:00 in New York (EDT)
    for (const s of [a, b]) {
      const [msg] = await waitForMail(box, s.email, 1);
      expect(msg.subject).toBe("The March 2031 menu for your Treat box is open");
      expect(msg.text).toContain(`until ${until}`);
      expect(msg.headers["list-unsubscribe"]).toMatch(/email\/unsubscribe/);
    }
    await rowReaches(shopId, { event: "box_menu_published", customerGid: off.customerGid }, ["skipped"]);

    // Publishing again (or a second click) writes nothing and sends nothing.
    expect((await publishBoxMenu(shopId, bundleId, "2031-03", now)).queued).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await mailTo(box, a.email)).length).toBe(1);
    expect((await mailTo(box, b.email)).length).toBe(1);
    expect(await mailTo(box, off.email)).toEqual([]);
    expect(await prisma.notificationLogEntry.count({ where: { shopId, event: "box_menu_published" } })).toBe(3);
  });

  it("the reminder goes to subscribers without a pick whose cutoff is near, once the menu is published, once per charge date", async () => {
    const now = new Date("2031-03-10T09:00:00Z");
    const near = new Date(now.getTime() + (CUTOFF_DAYS + 1) * DAY); // cutoff tomorrow
    const far = new Date("2031-03-28T09:00:00Z"); // cutoff in 15 days
    const { domain, shopId, bundleId, subscribers } = await boxShop([near, near, far], "2031-03");
    const [nopick, picked, later] = subscribers;
    expect(await queueBoxReminders(domain, now)).toBe(0); // no menu to pick from yet
    await prisma.bundleBox.updateMany({ where: { bundleId }, data: { published: true, publishedAt: now } });
    await prisma.boxSelection.create({ data: { shopId, contractGid: picked.contractGid, period: "2031-03", items: [] } });

    expect(await queueBoxReminders(domain, now)).toBe(1);
    expect(await queueBoxReminders(domain, new Date(now.getTime() + 3600_000))).toBe(0); // a rerun sends nothing
    const [msg] = await waitForMail(box, nopick.email, 1);
    expect(msg.subject).toBe(`Pick your Treat box before ${pickUntil(new Date(near.getTime() - CUTOFF_DAYS * DAY), TZ)}`);
    expect(msg.headers["list-unsubscribe"]).toMatch(/email\/unsubscribe/);

    // The charge date moves (still in March, cutoff still near): one more reminder, once.
    const moved = new Date(near.getTime() + DAY);
    await prisma.contract.updateMany({ where: { shopId, contractGid: nopick.contractGid }, data: { nextBillingAt: moved } });
    expect(await queueBoxReminders(domain, now)).toBe(1);
    expect(await queueBoxReminders(domain, now)).toBe(0);
    await waitForMail(box, nopick.email, 2);

    await new Promise((r) => setTimeout(r, 1000));
    expect(await mailTo(box, picked.email)).toEqual([]);
    expect(await mailTo(box, later.email)).toEqual([]);
    expect(await prisma.notificationLogEntry.count({ where: { shopId, event: "box_reminder" } })).toBe(2);
  });
});
