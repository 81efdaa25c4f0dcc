// Mail test helpers: the real mailbox (mailbox/server.ts) on this worker's ports, a customer with
// an e-mail address and a contract of theirs on the simulator (mirrored through the real
// reconcile), and waits on the mailbox and the outbox rows.
import { prisma } from "../../app/db.server";
import { env } from "../../app/env.server";
import { reconcileContract } from "../../app/domain/subscriptions/mirror.server";
import type { SimulatorControl } from "../../simulator/control-client";
import { startMailbox, type CaughtMessage, type Mailbox } from "../../mailbox/server";
import { eventually } from "./stack";

/** The mailbox for one test file, on the ports SMTP_URL points at (tests/setup/worker-env.ts). */
export function useMailbox(): Mailbox {
  let box: Mailbox | undefined;
  beforeAll(async () => {
    box = await startMailbox({ smtpPort: env().MAILBOX_SMTP_PORT, webPort: env().MAILBOX_WEB_PORT, quiet: true });
  });
  afterAll(async () => {
    const { closeMailTransport } = await import("../../app/infra/mailer.server");
    closeMailTransport();
    await box?.close();
  });
  return new Proxy({} as Mailbox, {
    get(_t, prop) {
      if (!box) throw new Error("the mailbox runs from beforeAll to afterAll");
      const v = box[prop as keyof Mailbox];
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(box) : v;
    },
  });
}

/** Messages the mailbox caught for `to`, as its JSON endpoint lists them (what a developer sees). */
export async function mailTo(box: Mailbox, to: string): Promise<CaughtMessage[]> {
  const all = (await (await fetch(`${box.url}/api/messages`)).json()) as CaughtMessage[];
  return all.filter((m) => m.envelopeTo.includes(to));
}

export async function waitForMail(box: Mailbox, to: string, count = 1, timeoutMs = 15_000): Promise<CaughtMessage[]> {
  return eventually(async () => {
    const got = await mailTo(box, to);
    return got.length >= count ? got : null;
  }, timeoutMs);
}

export async function rowReaches(shopId: string, where: { event?: string; customerGid?: string }, statuses: string[], timeoutMs = 15_000) {
  return eventually(async () => {
    const row = await prisma.notificationLogEntry.findFirst({ where: { shopId, ...where }, orderBy: { createdAt: "desc" } });
    return row && statuses.includes(row.status) ? row : null;
  }, timeoutMs);
}

let n = 0;
export const uniqueAddress = (tag = "c") => `${tag}-${Date.now().toString(36)}-${++n}@example.test`;

/** A customer with `email` and an active monthly contract of theirs, due at `nextBillingDate`. */
export async function seedMailContract(control: SimulatorControl, domain: string, opts: { email: string; nextBillingDate: string; title?: string }) {
  const customer = await control.call<{ id: string; paymentMethods: { id: string }[] }>("POST", `${control.shop(domain)}/customers`, {
    email: opts.email,
    paymentMethod: { kind: "credit_card" },
  });
  const product = await control.call<{ variants: { id: string }[] }>("POST", `${control.shop(domain)}/products`, {
    title: opts.title ?? "Coffee beans",
    variants: [{ price: "24.00" }],
  });
  const contract = await control.call<{ id: string }>("POST", `${control.shop(domain)}/contracts`, {
    customerId: customer.id,
    status: "ACTIVE",
    nextBillingDate: opts.nextBillingDate,
    billingPolicy: { interval: "MONTH", intervalCount: 1, anchors: [] },
    lines: [{ variantId: product.variants[0].id, quantity: 1 }],
    webhooks: false,
  });
  await reconcileContract(domain, contract.id);
  return { gid: contract.id, customerGid: customer.id, email: opts.email };
}
