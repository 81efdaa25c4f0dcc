import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../../simulator/server";

const dir = mkdtempSync(join(tmpdir(), "sim-persist-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (stateFile: string) => ({
  port: 0,
  stateFile,
  appUrl: "http://127.0.0.1:1",
  apiKey: "k",
  apiSecret: "s",
  appTomlPath: "shopify.app.toml",
});

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

describe("simulator persistence", () => {
  it("keeps shops, tokens and contracts across stop and restart (atomic JSON file)", async () => {
    const file = join(dir, "state.json");
    const first = await startSimulator(options(file));
    const shop = await post(`${first.url}/_sim/shops`, { shop: "persist.myshopify.com", partnerDevelopment: true });
    const contract = await post(`${first.url}/_sim/shops/persist.myshopify.com/contracts`, { status: "PAUSED", webhooks: false });
    await first.close();
    expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(1);

    const second = await startSimulator(options(file));
    try {
      const again = (await (await fetch(`${second.url}/_sim/shops/persist.myshopify.com`)).json()) as Record<string, unknown>;
      expect(again.accessToken).toBe(shop.accessToken);
      expect(again.plan).toMatchObject({ partnerDevelopment: true });
      const stored = (await (
        await fetch(`${second.url}/_sim/shops/persist.myshopify.com/contracts/${encodeURIComponent(String(contract.id))}`)
      ).json()) as Record<string, unknown>;
      expect(stored).toMatchObject({ id: contract.id, status: "PAUSED" });
      // New ids continue after the old ones instead of colliding.
      const next = await post(`${second.url}/_sim/shops/persist.myshopify.com/contracts`, { webhooks: false });
      expect(next.id).not.toBe(contract.id);
    } finally {
      await second.close();
    }
  });
});
