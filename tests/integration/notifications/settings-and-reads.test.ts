// A shop's mail settings at work (DKIM with its own key, quiet hours, sender) and the APIs that read
// the real log: Admin GET /notifications and the Customer API's notification-activity, with no
// name or address at any scope (docs/decisions/101-103).
import { randomUUID } from "node:crypto";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { prisma } from "../../../app/db.server";
import { queueAndDispatch } from "../../../app/domain/notifications/outbox.server";
import { dkimDnsRecord, saveMailSettings } from "../../../app/domain/notifications/settings.server";
import { issueCustomerSession } from "../../../app/domain/customer/session.server";
import { isSealed } from "../../../app/infra/secret-box.server";
import { createKey } from "../../support/fixtures";
import { useStack } from "../../support/stack";
import { rowReaches, uniqueAddress, useMailbox, waitForMail } from "../../support/mail";

const stack = useStack({}, 120_000);
const box = useMailbox();

const vars = {
  shop_name: "shop",
  contract_number: "7",
  product_title: "Tea",
  next_billing_date: "May 1, 2031",
  amount: "9.00 USD",
  manage_url: "https://x.test/account",
};
const base = { senderName: null, replyTo: null, sendingDomain: null, timezone: "UTC", quietStart: null, quietEnd: null, disabledKinds: [] };
const queue = (shopId: string, customerGid: string, recipient: string, dueAt?: Date) =>
  queueAndDispatch({
    shopId,
    kind: "subscription_paused",
    customerGid,
    contractGid: "gid://shopify/SubscriptionContract/77",
    cycle: randomUUID(),
    vars,
    recipient,
    dueAt,
  });

describe("settings", () => {
  it("with a sending domain, mail is From that domain and carries a DKIM-Signature that verifies against the published TXT record; the private key is sealed at rest", async () => {
    const { shopId } = await stack.installShop();
    const saved = await saveMailSettings(shopId, { ...base, senderName: "Tea Club", replyTo: "help@tea.example", sendingDomain: "mail.tea.example" });
    const record = dkimDnsRecord(saved)!;
    expect(record.name).toMatch(/^svc\d{6}\._domainkey\.mail\.tea\.example$/);
    expect(record.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]+$/);
    const stored = await prisma.notificationSettings.findUniqueOrThrow({ where: { shopId } });
    expect(isSealed(stored.dkimPrivateKey!)).toBe(true);
    expect(stored.dkimPrivateKey).not.toContain("PRIVATE KEY");

    const email = uniqueAddress("dkim");
    await queue(shopId, "gid://shopify/Customer/301", email);
    const [msg] = await waitForMail(box, email);
    expect(msg.from).toBe('"Tea Club" <notifications@mail.tea.example>');
    expect(msg.headers["reply-to"]).toBe("help@tea.example");
    expect(msg.headers["dkim-signature"]).toContain("d=mail.tea.example");

    const resolver = async (name: string, type: string) => {
      if (type === "TXT" && name === record.name) return [[record.value]];
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    };
    const verified = await dkimVerify(Buffer.from(msg.raw), { resolver });
    expect(verified.results.map((r) => r.status.result)).toEqual(["pass"]);

    // A message changed in transit no longer verifies.
    const tampered = await dkimVerify(Buffer.from(msg.raw.replace("is paused", "is PAUSED")), { resolver });
    expect(tampered.results.map((r) => r.status.result)).toEqual(["fail"]);
  });

  it("a message due inside the shop's quiet hours waits until they end, then goes", async () => {
    const { shopId } = await stack.installShop();
    const now = new Date();
    // Quiet from this UTC hour for one hour: due now is inside, so it goes at the next full hour.
    await saveMailSettings(shopId, { ...base, quietStart: now.getUTCHours(), quietEnd: (now.getUTCHours() + 1) % 24 });
    const q = await queue(shopId, "gid://shopify/Customer/302", uniqueAddress("quiet"), now);
    const next = new Date(now);
    next.setUTCHours(now.getUTCHours() + 1, 0, 0, 0);
    expect(q!.sendAfter.toISOString()).toBe(next.toISOString());
    const row = await prisma.notificationLogEntry.findUniqueOrThrow({ where: { id: q!.id } });
    expect(row.status).toBe("queued");
    expect(row.sendAfter.toISOString()).toBe(next.toISOString());

    // The same message outside quiet hours is due at once and is sent.
    await saveMailSettings(shopId, base);
    const email = uniqueAddress("loud");
    await queue(shopId, "gid://shopify/Customer/303", email, now);
    await waitForMail(box, email);
  });

  it("essential mail cannot be turned off; a bad time zone is refused", async () => {
    const { MailSettingsInput } = await import("../../../app/domain/notifications/settings.server");
    expect(MailSettingsInput.safeParse({ ...base, disabledKinds: ["payment_failed"] }).success).toBe(false);
    expect(MailSettingsInput.safeParse({ ...base, disabledKinds: ["renewal_reminder"] }).success).toBe(true);
    expect(MailSettingsInput.safeParse({ ...base, timezone: "Mars/Olympus" }).success).toBe(false);
  });
});

describe("the APIs read the real log", () => {
  it("Admin GET /notifications shows the lifecycle with no address or reason at any scope; the Customer API's activity lists the same rows", async () => {
    const { shopId } = await stack.installShop();
    const customerGid = "gid://shopify/Customer/401";
    const email = uniqueAddress("api");
    box.refuse(email, 550);
    await queue(shopId, customerGid, email);
    await rowReaches(shopId, { customerGid }, ["bounced"]);
    box.refuse(email, null);

    const secret = await createKey({ shopId, scopes: ["read:notifications", "read:customers"], kind: "SECRET" });
    const res = await fetch(`${stack.appUrl}/api/admin/v1/notifications?status=bounced`, { headers: { Authorization: `Bearer ${secret.key}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(email);
    expect(text).not.toContain("550");
    const body = JSON.parse(text) as { data: Record<string, unknown>[] };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ event: "subscription_paused", status: "bounced", customer_id: customerGid, delivered_at: null, sent_at: null });
    expect(body.data[0].bounced_at).toEqual(expect.any(String));

    const bad = await fetch(`${stack.appUrl}/api/admin/v1/notifications?status=lost`, { headers: { Authorization: `Bearer ${secret.key}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_request");

    const pk = await createKey({ shopId, scopes: ["read:plans"], kind: "PUBLISHABLE" });
    const session = issueCustomerSession({ shopId, customerId: customerGid, keyId: pk.id });
    const act = await fetch(`${stack.appUrl}/api/customer/v1/notification-activity`, {
      headers: { Authorization: `Bearer ${pk.key}`, "X-Service-Session": session.token },
    });
    expect(act.status).toBe(200);
    const activity = (await act.json()) as { activity: { status: string; title: string }[] };
    expect(activity.activity).toEqual([expect.objectContaining({ status: "bounced", title: "Pause confirmation" })]);
  });
});
