// An interrupted write does not leave its Idempotency-Key stuck (decision 035):
// a real web process is SIGKILLed after the platform applied its mutation and before it stored
// the outcome; once the claim's lease runs out, a retry is answered with the real outcome, and
// the mutation ran once.
import { randomUUID } from "node:crypto";
import { prisma } from "../../../app/db.server";

import { reconcileContract } from "../../../app/domain/subscriptions/mirror.server";
import { requestHash } from "../../../app/http/idempotency.server";
import { startWebProcess, type Child } from "../../support/processes";
import { eventually, startStack, type Stack } from "../../support/stack";
import { createKey } from "../../support/fixtures";

let stack: Stack;
let web: (Child & { url: string }) | undefined;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterEach(async () => {
  await web?.stop();
  web = undefined;
});
afterAll(async () => {
  await stack.close();
});

const port = Number(process.env.PORT) + 80;
const LEASE_MS = 3000;

async function shopWithContract() {
  const { domain, shopId } = await stack.installShop();
  const contract = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(domain)}/contracts`, {});
  await reconcileContract(domain, contract.id);
  const { key } = await createKey({ shopId, name: "writer", scopes: ["write:subscriptions", "read:subscriptions"], kind: "SECRET" });
  return { domain, shopId, gid: contract.id, key };
}

const pauses = async (domain: string) =>
  (await stack.control.operations(domain, { operation: "subscriptionContractPause" })).filter((o) => o.outcome === "ok").length;

function pause(baseUrl: string, gid: string, key: string, idempotencyKey: string) {
  return fetch(`${baseUrl}/api/admin/v1/subscriptions/${encodeURIComponent(gid)}/pause`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Idempotency-Key": idempotencyKey },
  });
}

it("a retry after the writer died mid-write gets the real outcome, and the mutation ran once", async () => {
  const { domain, shopId, gid, key } = await shopWithContract();
  const idempotencyKey = `k-${randomUUID()}`;
  // The platform applies the pause at once but answers only after 60 s: the writer is killed
  // while it waits, after the mutation and before it stores the outcome.
  await stack.control.failNext(domain, { operation: "subscriptionContractPause", delayMs: 60_000 });
  web = await startWebProcess(port, { IDEMPOTENCY_LEASE_MS: String(LEASE_MS), LOG_LEVEL: "warn" });
  const first = pause(web.url, gid, key, idempotencyKey).catch((err: Error) => err);
  await eventually(async () => (await pauses(domain)) === 1, 60_000);
  const claim = await prisma.idempotencyRecord.findFirstOrThrow({ where: { shopId, key: idempotencyKey } });
  expect(claim.responseStatus).toBeNull();
  web.proc.kill("SIGKILL");
  await web.exited();
  expect(await first).toBeInstanceOf(Error); // the client never got an answer

  web = await startWebProcess(port, { IDEMPOTENCY_LEASE_MS: String(LEASE_MS), LOG_LEVEL: "warn" });
  // Before the lease runs out the claim still counts as in flight (409); after it, the retry
  // settles the first attempt from the platform.
  let retry: Response | undefined;
  await eventually(async () => {
    retry = await pause(web!.url, gid, key, idempotencyKey);
    if (retry.status === 409) expect((await retry.json()).error.code).toBe("idempotency_conflict");
    return retry.status !== 409;
  }, 90_000);
  expect(retry!.status).toBe(200);
  expect(retry!.headers.get("idempotency-replayed")).toBe("true");
  const receipt = await retry!.json();
  expect(receipt).toMatchObject({ id: gid, action: "pause", previous_status: "ACTIVE", status: "PAUSED" });
  expect(await pauses(domain)).toBe(1);

  // From now on it is an ordinary completed key: the same outcome, byte for byte.
  const again = await pause(web.url, gid, key, idempotencyKey);
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual(receipt);
  expect(await pauses(domain)).toBe(1);
  expect((await prisma.contract.findFirstOrThrow({ where: { shopId, contractGid: gid } })).status).toBe("PAUSED");
}, 300_000);

it("a claim whose mutation never reached the platform is released to the retry, which runs the write once", async () => {
  const { domain, shopId, gid, key } = await shopWithContract();
  const idempotencyKey = `k-${randomUUID()}`;
  const path = `/api/admin/v1/subscriptions/${encodeURIComponent(gid)}/pause`;
  // What a process that died right after claiming (before its mutation left) leaves behind: a
  // claim without an outcome, its lease run out. The moment between the claim and the platform
  // call cannot be hit from outside, so the row is written as that process would have written it.
  await prisma.idempotencyRecord.create({
    data: {
      shopId,
      key: idempotencyKey,
      requestHash: requestHash("POST", path, ""),
      createdAt: new Date(Date.now() - 10_000),
      leaseExpiresAt: new Date(Date.now() - 1000),
      intent: { kind: "subscription_write", action: "pause", shopDomain: domain, contractGid: gid, previousStatus: "ACTIVE" },
    },
  });
  const retry = await pause(stack.appUrl, gid, key, idempotencyKey);
  expect(retry.status).toBe(200);
  expect(retry.headers.get("idempotency-replayed")).toBeNull(); // it ran now, for the first time
  expect(await retry.json()).toMatchObject({ action: "pause", previous_status: "ACTIVE", status: "PAUSED" });
  expect(await pauses(domain)).toBe(1);
  const replay = await pause(stack.appUrl, gid, key, idempotencyKey);
  expect(replay.headers.get("idempotency-replayed")).toBe("true");
  expect(await pauses(domain)).toBe(1);
});

it("a claim still inside its lease is in flight: 409, and nothing is settled or run", async () => {
  const { domain, shopId, gid, key } = await shopWithContract();
  const idempotencyKey = `k-${randomUUID()}`;
  const path = `/api/admin/v1/subscriptions/${encodeURIComponent(gid)}/pause`;
  await prisma.idempotencyRecord.create({
    data: {
      shopId,
      key: idempotencyKey,
      requestHash: requestHash("POST", path, ""),
      leaseExpiresAt: new Date(Date.now() + 60_000),
      intent: { kind: "subscription_write", action: "pause", shopDomain: domain, contractGid: gid, previousStatus: "ACTIVE" },
    },
  });
  const retry = await pause(stack.appUrl, gid, key, idempotencyKey);
  expect(retry.status).toBe(409);
  expect((await retry.json()).error.code).toBe("idempotency_conflict");
  expect(await pauses(domain)).toBe(0);
});
