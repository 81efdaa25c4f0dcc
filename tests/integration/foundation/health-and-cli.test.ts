// /healthz against the real stores, and the operator CLI as a support engineer runs it.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { prisma } from "../../../app/db.server";
import { eventually, useStack } from "../../support/stack";

const run = promisify(execFile);
const stack = useStack({ workers: false });

const cli = (...args: string[]) => run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env: process.env });

describe("GET /healthz", () => {
  it("answers 200 {status: ok} when PostgreSQL and Redis answer", async () => {
    const res = await fetch(`${stack.appUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("answers 503 when Redis does not", async () => {
    const port = Number(process.env.PORT) + 50;
    const web = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: { ...process.env, PORT: String(port), REDIS_URL: "redis://127.0.0.1:1/0" },
      stdio: "ignore",
    });
    try {
      const res = await eventually(() => fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null), 20_000);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", failing: ["redis"] });
    } finally {
      web.kill("SIGTERM");
    }
  });
});

describe("operator CLI", () => {
  it("mints a key shown once, lists it without secrets, revokes it", async () => {
    const { domain } = await stack.installShop();
    const minted = JSON.parse(
      (
        await cli(
          "keys",
          "mint",
          "--shop",
          domain,
          "--name",
          "Warehouse sync",
          "--scopes",
          "read:subscriptions,read:plans",
          "--expires",
          "2030-01-01T00:00:00Z",
        )
      ).stdout,
    );
    expect(minted.key).toMatch(/^svc_sk_/);
    expect(Object.keys(minted).sort()).toEqual(["id", "key"]);

    const res = await fetch(`${stack.appUrl}/api/admin/v1/plans`, { headers: { Authorization: `Bearer ${minted.key}` } });
    expect(res.status).toBe(200);

    const listed = JSON.parse((await cli("keys", "list", "--shop", domain)).stdout);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(minted.key.split("_").pop());
    expect(listed[0]).toMatchObject({ id: minted.id, name: "Warehouse sync" });

    await cli("keys", "revoke", "--id", minted.id);
    const after = await fetch(`${stack.appUrl}/api/admin/v1/plans`, { headers: { Authorization: `Bearer ${minted.key}` } });
    expect((await after.json()).error.code).toBe("credential_revoked");
  });

  it("mints publishable keys and refuses scopes that are not offered", async () => {
    const { domain } = await stack.installShop();
    const pk = JSON.parse((await cli("keys", "mint", "--shop", domain, "--name", "Theme", "--scopes", "read:mixmatch", "--publishable")).stdout);
    expect(pk.key).toMatch(/^svc_pk_/);
    await expect(cli("keys", "mint", "--shop", domain, "--name", "x", "--scopes", "write:plans")).rejects.toMatchObject({
      stderr: expect.stringContaining("write:plans"),
    });
    await expect(cli("keys", "mint", "--shop", domain, "--name", "x", "--scopes", "read:plans", "--expires", "soon")).rejects.toMatchObject({
      stderr: expect.stringContaining("--expires"),
    });
  });

  it("overrides a shop's plan for support, and hands it back to Shopify Billing", async () => {
    const { domain, shopId } = await stack.installShop();
    expect(JSON.parse((await cli("shops", "plan", "--shop", domain, "--plan", "free")).stdout)).toEqual({
      shop: domain,
      plan: "free",
      billing_plan: "free",
      override: "free",
    });
    expect((await prisma.shop.findUniqueOrThrow({ where: { id: shopId } })).appPlan).toBe("FREE");
    expect(JSON.parse((await cli("shops", "plan", "--shop", domain, "--plan", "billing")).stdout)).toEqual({
      shop: domain,
      plan: "free",
      billing_plan: "free",
      override: null,
    });
    await expect(cli("shops", "plan", "--shop", domain, "--plan", "gold")).rejects.toMatchObject({ stderr: expect.stringContaining("pro, free or billing") });
  });

  it('mints a publishable key with no scopes (--scopes ""), and refuses a secret key with none', async () => {
    const { domain } = await stack.installShop();
    const pk = JSON.parse((await cli("keys", "mint", "--shop", domain, "--name", "Portal", "--scopes", "", "--publishable")).stdout);
    expect(pk.key).toMatch(/^svc_pk_/);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: pk.id } })).scopes).toEqual([]);
    await expect(cli("keys", "mint", "--shop", domain, "--name", "x", "--scopes", "")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("at least one scope"),
    });
    await expect(cli("keys", "mint", "--shop", domain, "--name", "x", "--publishable")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--scopes is required"),
    });
  });

  it("prints its usage for an unknown command and exits non-zero", async () => {
    await expect(cli("keys", "rotate")).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("keys mint --shop") });
    await expect(cli()).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("usage: npm run cli") });
    await expect(cli("shops", "list", "--colour", "red")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--colour[\s\S]*usage: npm run cli/),
    });
  });

  it("--help prints the usage of every command and exits 0, without touching the database", async () => {
    // An unreachable database proves help is answered before anything connects.
    const offline = { ...process.env, DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none" };
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env: offline });
      for (const command of ["keys mint", "keys list", "keys revoke", "shops plan", "shops list", "mirror reconcile", "storefront sync", "sessions reseal"]) {
        expect(stdout).toContain(command);
      }
    }
  });

  it("explains every command and every group on --help", async () => {
    const offline = { ...process.env, DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none" };
    const help = async (...args: string[]) => (await run(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args, "--help"], { env: offline })).stdout;
    expect(await help("keys")).toMatch(/keys mint[\s\S]*keys list[\s\S]*keys revoke/);
    expect(await help("shops")).toMatch(/shops plan[\s\S]*shops list/);
    const mint = await help("keys", "mint");
    for (const option of ["--shop", "--name", "--scopes", "--expires", "--publishable"]) expect(mint).toContain(option);
    expect(await help("shops", "plan")).toContain("--plan pro|free|billing");
    for (const [command, option] of [
      ["keys list", "--shop"],
      ["keys revoke", "--id"],
      ["mirror reconcile", "--shop"],
      ["storefront sync", "--shop"],
      ["sessions reseal", "ENCRYPTION_KEY"],
      ["shops list", "install state"],
    ]) {
      expect(await help(...command.split(" "))).toContain(option);
    }
  });
});
