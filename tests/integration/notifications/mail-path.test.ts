// The mail path against a real SMTP catcher (mailbox/server.ts), the simulator and in-process
// BullMQ workers: reminders rendered, sent and parsed back; bounces, deferrals, DSNs, Mailgun
// events; preferences and one-click unsubscribe (docs/decisions/101-104, docs/email.md).
import { createHmac, randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";
import { env } from "../../../app/env.server";
import { sendDueReminders } from "../../../app/domain/renewals/reminders.server";
import { messageIdFor, verpAddress } from "../../../app/domain/notifications/links.server";
import { queueAndDispatch } from "../../../app/domain/notifications/outbox.server";
import { setNotificationPreferences, normalisePreferences } from "../../../app/domain/customer/notification-preferences.server";
import { listSuppressions } from "../../../app/domain/notifications/suppression.server";
import { useStack, eventually } from "../../support/stack";
import { mailTo, rowReaches, seedMailContract, uniqueAddress, useMailbox, waitForMail } from "../../support/mail";

const stack = useStack({}, 120_000);
const box = useMailbox();
const DAY = 86_400_000;

const vars = {
  shop_name: "shop",
  contract_number: "1",
  product_title: "Tea",
  next_billing_date: "May 1, 2031",
  amount: "9.00 USD",
  manage_url: "https://x.test/account",
};

/** One message queued directly (the cause is not what these tests are about). */
async function queueOne(shopId: string, kind: "subscription_paused" | "payment_failed_final", customerGid: string, recipient: string) {
  return queueAndDispatch({ shopId, kind, customerGid, contractGid: `gid://shopify/SubscriptionContract/${Date.now()}`, cycle: randomUUID(), vars, recipient });
}

describe("renewal reminders", () => {
  it("a reminder is rendered, sent and parsed back with the contract, the date, the links and the headers; sent is recorded with the SMTP reply", async () => {
    const { domain, shopId } = await stack.installShop();
    const email = uniqueAddress("remind");
    const due = new Date(Date.now() + 2 * DAY);
    due.setUTCHours(12, 0, 0, 0);
    const c = await seedMailContract(stack.control, domain, { email, nextBillingDate: due.toISOString(), title: "Espresso beans" });

    expect(await sendDueReminders(shopId, new Date())).toBe(1);
    const [msg] = await waitForMail(box, email);
    const row = await rowReaches(shopId, { event: "renewal_reminder" }, ["sent"]);

    const number = c.gid.split("/").pop()!;
    const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(due);
    expect(msg.subject).toBe(`Your Espresso beans renews on ${longDate}`);
    expect(msg.text).toContain(`(#${number})`);
    expect(msg.text).toContain(`https://${domain}/account`);
    expect(msg.html).toContain(`<a href="https://${domain}/account">`);
    expect(msg.messageId).toBe(messageIdFor(shopId, `renewal_reminder:${c.gid}:${due.toISOString()}`));
    expect(msg.envelopeFrom).toBe(verpAddress(row.id));
    expect(msg.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const unsub = /<(.+)>/.exec(msg.headers["list-unsubscribe"])![1];
    expect(unsub).toContain(`${env().SHOPIFY_APP_URL}/email/unsubscribe?`);
    expect(msg.text).toContain(unsub);

    expect(row.messageId).toBe(msg.messageId);
    expect(row.smtpResponse).toMatch(/^250 /);
    expect(row.sentAt).not.toBeNull();
    expect(row.deliveredAt).toBeNull(); // sent is not delivered
    expect(row.recipient).toBe(email);
  });

  it("moving the charge date after the reminder went out sends it again exactly once", async () => {
    const { domain, shopId } = await stack.installShop();
    const email = uniqueAddress("moved");
    const due = new Date(Date.now() + 2 * DAY);
    const c = await seedMailContract(stack.control, domain, { email, nextBillingDate: due.toISOString() });
    await sendDueReminders(shopId, new Date());
    await waitForMail(box, email, 1);
    expect(await sendDueReminders(shopId, new Date())).toBe(0);

    const moved = new Date(due.getTime() + DAY);
    await prisma.contract.update({ where: { shopId_contractGid: { shopId, contractGid: c.gid } }, data: { nextBillingAt: moved } });
    await sendDueReminders(shopId, new Date());
    await sendDueReminders(shopId, new Date());
    const got = await waitForMail(box, email, 2);
    await eventually(async () => (await prisma.notificationLogEntry.count({ where: { shopId, status: "sent" } })) === 2);
    expect(await prisma.notificationLogEntry.count({ where: { shopId, event: "renewal_reminder" } })).toBe(2);
    expect((await mailTo(box, email)).length).toBe(2);
    expect(got.map((m) => m.messageId)).toEqual([...new Set(got.map((m) => m.messageId))]);
  });
});

describe("the lifecycle", () => {
  it("a recipient refused with 550 is bounced at once and suppressed; nothing more is sent to it", async () => {
    const { shopId } = await stack.installShop();
    const email = uniqueAddress("hard");
    box.refuse(email, 550);
    await queueOne(shopId, "payment_failed_final", "gid://shopify/Customer/550", email);
    const row = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/550" }, ["bounced"]);
    expect(row.reason).toMatch(/^550 /);
    expect(row.bouncedAt).not.toBeNull();
    expect((await listSuppressions(shopId)).map((s) => s.address)).toEqual([email]);

    box.refuse(email, null);
    await queueOne(shopId, "payment_failed_final", "gid://shopify/Customer/551", email);
    const next = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/551" }, ["skipped"]);
    expect(next.reason).toMatch(/suppression list/);
    expect(await mailTo(box, email)).toEqual([]);
  });

  it("a recipient refused with 451 is deferred, then sent once the server accepts", async () => {
    const { shopId } = await stack.installShop();
    const email = uniqueAddress("soft");
    box.refuse(email, 451);
    await queueOne(shopId, "payment_failed_final", "gid://shopify/Customer/451", email);
    const deferred = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/451" }, ["deferred"]);
    expect(deferred.reason).toMatch(/^451 /);
    box.refuse(email, null);
    const sent = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/451" }, ["sent"]);
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(await waitForMail(box, email)).toHaveLength(1);
  });
});

function dsn(to: string, action: "failed" | "delivered", messageId: string): string {
  const b = `b${randomUUID()}`;
  return [
    `From: Mail Delivery System <mailer-daemon@mx.example.test>`,
    `To: ${to}`,
    `Subject: Delivery Status Notification`,
    `MIME-Version: 1.0`,
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`,
    ``,
    `--${b}`,
    `Content-Type: text/plain`,
    ``,
    action === "failed" ? `Your message could not be delivered.` : `Your message was delivered.`,
    `--${b}`,
    `Content-Type: message/delivery-status`,
    ``,
    `Reporting-MTA: dns; mx.example.test`,
    ``,
    `Final-Recipient: rfc822; someone@example.test`,
    `Action: ${action}`,
    `Status: ${action === "failed" ? "5.1.1" : "2.0.0"}`,
    ...(action === "failed" ? [`Diagnostic-Code: smtp; 550 5.1.1 The email account does not exist`] : []),
    `--${b}`,
    `Content-Type: text/rfc822-headers`,
    ``,
    `Message-ID: ${messageId}`,
    `Subject: something`,
    `--${b}--`,
    ``,
  ].join("\r\n");
}

describe("evidence after sent", () => {
  it("a DSN to the VERP address with Action: failed marks the sent message bounced (and suppresses); Action: delivered marks delivered", async () => {
    const { shopId } = await stack.installShop();
    const a = uniqueAddress("dsn-a");
    const b = uniqueAddress("dsn-b");
    await queueOne(shopId, "subscription_paused", "gid://shopify/Customer/71", a);
    await queueOne(shopId, "subscription_paused", "gid://shopify/Customer/72", b);
    const ra = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/71" }, ["sent"]);
    const rb = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/72" }, ["sent"]);

    const post = (raw: string) => fetch(`${stack.appUrl}/email/dsn`, { method: "POST", headers: { "Content-Type": "message/rfc822" }, body: raw });
    const r1 = await post(dsn(verpAddress(ra.id), "failed", ra.messageId!));
    expect(await r1.json()).toEqual({ matched: true, rowId: ra.id, status: "bounced" });
    const bounced = await prisma.notificationLogEntry.findUniqueOrThrow({ where: { id: ra.id } });
    expect(bounced.reason).toContain("5.1.1");
    expect((await listSuppressions(shopId)).map((s) => s.address)).toContain(a);

    const r2 = await post(dsn(verpAddress(rb.id), "delivered", rb.messageId!));
    expect(await r2.json()).toEqual({ matched: true, rowId: rb.id, status: "delivered" });
    expect((await prisma.notificationLogEntry.findUniqueOrThrow({ where: { id: rb.id } })).deliveredAt).not.toBeNull();

    // A forged VERP signature and an unknown Message-ID match nothing.
    const forged = dsn(verpAddress(rb.id).replace(/\.[A-Za-z0-9_-]{12}@/, ".AAAAAAAAAAAA@"), "failed", "<nobody@x>");
    expect(await (await post(forged)).json()).toEqual({ matched: false });
    const empty = await fetch(`${stack.appUrl}/email/dsn`, { method: "POST", body: "" });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  });

  it("Mailgun's signed event webhook moves a sent message; a bad signature is refused and changes nothing", async () => {
    const { shopId } = await stack.installShop();
    const email = uniqueAddress("mg");
    await queueOne(shopId, "subscription_paused", "gid://shopify/Customer/81", email);
    const row = await rowReaches(shopId, { customerGid: "gid://shopify/Customer/81" }, ["sent"]);
    const signed = (key: string, ev: object) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const token = randomUUID().replace(/-/g, "");
      const signature = createHmac("sha256", key)
        .update(timestamp + token)
        .digest("hex");
      return JSON.stringify({ signature: { timestamp, token, signature }, "event-data": ev });
    };
    const post = (body: string) => fetch(`${stack.appUrl}/email/mailgun`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    const event = (key: string, ev: object) => post(signed(key, ev));
    const bounce = {
      event: "failed",
      severity: "permanent",
      message: { headers: { "message-id": row.messageId!.slice(1, -1) } },
      "delivery-status": { code: 550, message: "No such user" },
    };
    const bad = await event("not-the-key-000000000000000000000", bounce);
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_credential");
    expect((await prisma.notificationLogEntry.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("sent");

    const captured = signed(env().MAILGUN_SIGNING_KEY, bounce);
    const good = await post(captured);
    expect(await good.json()).toEqual({ matched: true, rowId: row.id, status: "bounced" });
    expect((await prisma.notificationLogEntry.findUniqueOrThrow({ where: { id: row.id } })).reason).toContain("No such user");

    // The merchant removes the suppression; the captured event, replayed inside its window, is refused and changes nothing.
    await prisma.emailSuppression.deleteMany({ where: { shopId, address: email.toLowerCase() } });
    const replay = await post(captured);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { error: { code: string } }).error.code).toBe("invalid_credential");
    expect(await prisma.emailSuppression.count({ where: { shopId, address: email.toLowerCase() } })).toBe(0);
  });
});

describe("preferences", () => {
  it("an opted-out category is not sent (skipped with the reason); essential mail still goes", async () => {
    const { shopId } = await stack.installShop();
    const email = uniqueAddress("pref");
    const customerGid = "gid://shopify/Customer/91";
    await setNotificationPreferences({ shopId, customerId: customerGid, values: normalisePreferences({ orders: false }) });
    await queueOne(shopId, "subscription_paused", customerGid, email);
    const skipped = await rowReaches(shopId, { customerGid, event: "subscription_paused" }, ["skipped"]);
    expect(skipped.reason).toMatch(/turned off orders/);
    await queueOne(shopId, "payment_failed_final", customerGid, email);
    await rowReaches(shopId, { customerGid, event: "payment_failed_final" }, ["sent"]);
    const got = await waitForMail(box, email);
    expect(got.map((m) => m.headers["x-notification-kind"])).toEqual(["payment_failed_final"]);
    expect(got[0].headers["list-unsubscribe"]).toBeUndefined(); // essential mail has no unsubscribe
  });

  it("the one-click POST turns the category off; a GET shows a page and changes nothing", async () => {
    const { shopId } = await stack.installShop();
    const email = uniqueAddress("oneclick");
    const customerGid = "gid://shopify/Customer/95";
    await queueOne(shopId, "subscription_paused", customerGid, email);
    const [msg] = await waitForMail(box, email);
    const url = /<(.+)>/.exec(msg.headers["list-unsubscribe"])![1].replace(env().SHOPIFY_APP_URL, stack.appUrl);
    const prefs = () => prisma.notificationPreference.findUnique({ where: { shopId_customerGid: { shopId, customerGid } } });

    const get = await fetch(url);
    expect(get.status).toBe(200);
    expect(await get.text()).toContain("<button");
    expect(await prefs()).toBeNull();

    const post = await fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(post.status).toBe(200);
    expect((await prefs())?.values).toMatchObject({ orders: false, reminders: true });

    const tampered = await fetch(url.replace("k=orders", "k=reminders"), { method: "POST", body: "List-Unsubscribe=One-Click" });
    expect(tampered.status).toBe(400);
    expect((await prefs())?.values).toMatchObject({ reminders: true });
  });
});
