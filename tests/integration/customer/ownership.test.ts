// Ownership on the Customer API (docs/decisions/070-customer-api-ownership.md), over real HTTP:
// for every endpoint that takes a contract or line id, customer A's session with customer B's
// id on the same shop is 403 forbidden, another shop's id is 404 not_found, and nothing changes
// on the platform or in the database. The platform, not the mirror, decides; a cancelled
// contract is refused for edits but still takes a cancel reason and save events.
import { prisma } from "../../../app/db.server";
import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { startStack, type Stack } from "../../support/stack";
import { seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { client, enc, simContract, type Json } from "./helpers";

const DAY = 86_400_000;
let stack: Stack;
let s: CustomerShop;
let other: CustomerShop;
let api: ReturnType<typeof client>;
let sessionA: string;

beforeAll(async () => {
  stack = await startStack({ workers: false });
  s = await seedCustomerShop(stack.control, stack.installShop);
  other = await seedCustomerShop(stack.control, stack.installShop);
  api = client(stack, () => s);
  sessionA = await api.sessionFor(s.customers.a);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

type Contract = { id: string; lines: { id: string }[] };

/** Every endpoint that names a contract (or a line of it), with a request that would succeed for its owner. */
function endpoints(boxContract: Contract, lineContract: Contract, menu: string[]) {
  const c = (x: Contract) => `/subscriptions/${enc(x.id)}`;
  const l = (x: Contract) => `${c(x)}/lines/${enc(x.lines[0].id)}`;
  const date = new Date(Date.now() + 20 * DAY).toISOString().slice(0, 10);
  return [
    ["GET", `${c(boxContract)}/box`, undefined],
    ["POST", `${c(boxContract)}/box`, { items: [{ variant_id: menu[0], quantity: 2 }] }],
    ["GET", `${c(lineContract)}/payment-method`, undefined],
    ["POST", `${c(lineContract)}/payment-method/update-email`, undefined],
    ["GET", `${l(lineContract)}/swap-options`, undefined],
    ["POST", l(lineContract), { quantity: 4 }],
    ["POST", `${c(lineContract)}/reschedule`, { date }],
    ["POST", `${c(lineContract)}/cancel-reason`, { reason: "Moving abroad" }],
    ["POST", `${c(lineContract)}/save-event`, { offer_type: "discount", event_type: "accepted" }],
  ] as Array<[string, string, unknown]>;
}

/** What a write could have touched: both contracts on the platform, e-mails, and the app's rows. */
async function footprint(shop: CustomerShop, contracts: Contract[]) {
  const platform = await Promise.all(contracts.map((x) => simContract(stack, shop.domain, x.id)));
  const emails = await stack.control.call<Json[]>("GET", `${stack.control.shop(shop.domain)}/emails`);
  const ids = contracts.map((x) => x.id);
  return {
    platform: platform.map((p) => ({ revision: p.revisionId, next: p.nextBillingDate, lines: p.lines })),
    emails: emails.length,
    reasons: await prisma.cancelReason.count({ where: { contractGid: { in: ids } } }),
    saves: await prisma.saveEvent.count({ where: { contractGid: { in: ids } } }),
    picks: await prisma.boxSelection.count({ where: { contractGid: { in: ids } } }),
  };
}

describe("BOLA matrix", () => {
  it("customer A with customer B's contract on the same shop: 403 forbidden on every endpoint, nothing changes", async () => {
    const before = await footprint(s, [s.contracts.b, s.contracts.bBox]);
    for (const [method, path, body] of endpoints(s.contracts.bBox, s.contracts.b, s.variants.menu)) {
      const res = await api.call(method, path, { session: sessionA, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect(await footprint(s, [s.contracts.b, s.contracts.bBox])).toEqual(before);
  });

  it("customer A with another shop's contract: 404 not_found on every endpoint, nothing changes there", async () => {
    const before = await footprint(other, [other.contracts.a, other.contracts.aBox]);
    for (const [method, path, body] of endpoints(other.contracts.aBox, other.contracts.a, other.variants.menu)) {
      const res = await api.call(method, path, { session: sessionA, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect(await footprint(other, [other.contracts.a, other.contracts.aBox])).toEqual(before);
  });

  it("an unknown contract id and a malformed one are 404 not_found", async () => {
    const unknown = { id: "gid://shopify/SubscriptionContract/987654321", lines: [{ id: "gid://shopify/SubscriptionLine/1" }] };
    const malformed = { id: "1 OR 1=1", lines: [{ id: "x" }] };
    for (const target of [unknown, malformed]) {
      for (const [method, path, body] of endpoints(target, target, s.variants.menu)) {
        const res = await api.call(method, path, { session: sessionA, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe("not_found");
      }
    }
  });

  it("the owner gets through on every endpoint (the matrix's other half)", async () => {
    for (const [method, path, body] of endpoints(s.contracts.aBox, s.contracts.a, s.variants.menu)) {
      const res = await api.call(method, path, { session: sessionA, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });
});

describe("the platform decides, not the mirror", () => {
  it("a mirror row claiming B's contract for A does not let A write to it", async () => {
    await prisma.contract.updateMany({ where: { shopId: s.shopId, contractGid: s.contracts.b.id }, data: { customerGid: s.customers.a } });
    try {
      const before = await simContract(stack, s.domain, s.contracts.b.id);
      const res = await api.call("POST", `/subscriptions/${enc(s.contracts.b.id)}/lines/${enc(s.contracts.b.lines[0].id)}`, {
        session: sessionA,
        body: { quantity: 7 },
      });
      expect(res.status).toBe(403);
      expect((await simContract(stack, s.domain, s.contracts.b.id)).revisionId).toBe(before.revisionId);
    } finally {
      await prisma.contract.updateMany({ where: { shopId: s.shopId, contractGid: s.contracts.b.id }, data: { customerGid: s.customers.b } });
    }
  });

  it("a contract the platform no longer knows is 404 even while the mirror still has it", async () => {
    await prisma.contract.updateMany({ where: { shopId: s.shopId, contractGid: s.contracts.b.id }, data: { customerGid: s.customers.a } });
    const ghost = await prisma.contract.create({
      data: {
        shopId: s.shopId,
        contractGid: "gid://shopify/SubscriptionContract/876543210",
        status: "ACTIVE",
        customerGid: s.customers.a,
        currencyCode: "USD",
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    });
    try {
      const res = await api.call("POST", `/subscriptions/${enc(ghost.contractGid)}/reschedule`, {
        session: sessionA,
        body: { date: new Date(Date.now() + 9 * DAY).toISOString().slice(0, 10) },
      });
      expect(res.status).toBe(404);
    } finally {
      await prisma.contract.delete({ where: { id: ghost.id } });
      await prisma.contract.updateMany({ where: { shopId: s.shopId, contractGid: s.contracts.b.id }, data: { customerGid: s.customers.b } });
    }
  });
});

describe("a cancelled contract", () => {
  it("is refused for every edit with 409 state_conflict, reads still answer, and the save flow still records", async () => {
    const shop = await seedCustomerShop(stack.control, stack.installShop);
    const mine = client(stack, () => shop);
    const session = await mine.sessionFor(shop.customers.a);
    for (const x of [shop.contracts.a, shop.contracts.aBox]) {
      await stack.control.call("PATCH", `${stack.control.shop(shop.domain)}/contracts/${enc(x.id)}`, { status: "CANCELLED", webhooks: false });
      await reconcileContract(shop.domain, x.id);
    }
    expect((await prisma.contract.findFirstOrThrow({ where: { shopId: shop.shopId, contractGid: shop.contracts.a.id } })).status).toBe("CANCELLED");
    const before = await footprint(shop, [shop.contracts.a, shop.contracts.aBox]);
    const all = endpoints(shop.contracts.aBox, shop.contracts.a, shop.variants.menu);
    const edits = all.filter(([m, p]) => m === "POST" && !p.endsWith("/cancel-reason") && !p.endsWith("/save-event"));
    expect(edits.length).toBe(4);
    for (const [method, path, body] of edits) {
      const res = await mine.call(method, path, { session, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error.code).toBe("state_conflict");
    }
    expect(await footprint(shop, [shop.contracts.a, shop.contracts.aBox])).toEqual(before);
    for (const [method, path, body] of all.filter(([m]) => m === "GET")) {
      expect((await mine.call(method, path, { session, body })).status, path).toBe(200);
    }
    // cancel-reason and save-event check the mirror row's owner only: they record on a cancelled contract.
    for (const [method, path, body] of all.filter(([, p]) => p.endsWith("/cancel-reason") || p.endsWith("/save-event"))) {
      expect((await mine.call(method, path, { session, body })).status, path).toBe(200);
    }
    expect(await prisma.cancelReason.count({ where: { shopId: shop.shopId, contractGid: shop.contracts.a.id } })).toBe(1);
    expect(await prisma.saveEvent.count({ where: { shopId: shop.shopId, contractGid: shop.contracts.a.id } })).toBe(1);
  });
});
