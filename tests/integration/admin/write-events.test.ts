// One write, one event: an Admin API write over HTTP reconciles the mirror before answering,
// and the single outbound event comes from the platform's inbound contract-update webhook
// (simulator → app → real worker), not from the write; a replayed write adds nothing.
import { prisma } from "../../../app/db.server";

import { useStack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

const stack = useStack();

// Scoped to the shop: simulator gids restart with each simulator, so other tests' shops reuse them.
const eventsOf = (shopId: string, gid: string) =>
  prisma.event.findMany({ where: { shopId, data: { path: ["contract_id"], equals: gid } }, orderBy: { createdAt: "asc" }, select: { type: true } });

it("pause and cancel through the Admin API each yield exactly one event, after the 200", async () => {
  const { domain, shopId } = await stack.installShop();
  const contract = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(domain)}/contracts`, {});
  await stack.settled(domain, async () => (await eventsOf(shopId, contract.id)).length === 1); // subscription.created
  const { key } = await createKey({ shopId, name: "writer", scopes: ["write:subscriptions"], kind: "SECRET" });

  const write = (action: string, idempotencyKey: string) =>
    fetch(`${stack.appUrl}/api/admin/v1/subscriptions/${encodeURIComponent(contract.id)}/${action}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Idempotency-Key": idempotencyKey },
    });

  const paused = await write("pause", "pause-1");
  expect(paused.status).toBe(200);
  expect(await paused.json()).toMatchObject({ action: "pause", previous_status: "ACTIVE", status: "PAUSED" });
  // The mirror was reconciled before the answer.
  expect((await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: contract.id } })).status).toBe("PAUSED");

  await stack.settled(domain, async () => (await eventsOf(shopId, contract.id)).length === 2);
  expect((await write("pause", "pause-1")).headers.get("idempotency-replayed")).toBe("true");

  expect((await write("cancel", "cancel-1")).status).toBe(200);
  await stack.settled(domain, async () => (await eventsOf(shopId, contract.id)).length === 3);
  await stack.sim.idle();
  await new Promise((r) => setTimeout(r, 300)); // room for any stray second event to show up
  expect((await eventsOf(shopId, contract.id)).map((e) => e.type)).toEqual(["subscription.created", "subscription.paused", "subscription.cancelled"]);
});
