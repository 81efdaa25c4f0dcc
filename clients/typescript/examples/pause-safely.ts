// Pause with an Idempotency-Key and retry safely: the same key answers the first result again
// (Idempotency-Replayed: true) instead of pausing twice.
import { randomUUID } from "node:crypto";
import { createServiceClient, type ClientOptions } from "../index";

export async function pauseSafely(o: ClientOptions, contractId: string) {
  const client = createServiceClient(o);
  const idempotencyKey = randomUUID(); // keep it with the intent, reuse it on every retry
  const call = () =>
    client.POST("/api/admin/v1/subscriptions/{contract_gid}/pause", {
      params: { path: { contract_gid: contractId }, header: { "Idempotency-Key": idempotencyKey } },
    });
  const first = await call();
  if (first.error) throw new Error(`pause refused: ${first.error.error.code}`);
  const retry = await call(); // e.g. after a timeout: safe
  return {
    receipt: first.data,
    replayed: retry.response.headers.get("idempotency-replayed") === "true",
    same: JSON.stringify(retry.data) === JSON.stringify(first.data),
  };
}
