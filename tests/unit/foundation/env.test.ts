import { parseEnv } from "../../../app/env.server";
import { LOCAL_DEFAULTS, applyLocalDefaults } from "../../../app/infra/local-env";

const valid = () => {
  const e = {} as unknown as NodeJS.ProcessEnv;
  applyLocalDefaults(e);
  return e;
};

describe("environment", () => {
  it("accepts the local defaults", () => {
    const env = parseEnv(valid());
    expect(env.PORT).toBe(3000);
    expect(env.SHOPIFY_SIMULATOR_URL).toBe("http://127.0.0.1:3100");
  });

  it("names every bad variable in one clear message", () => {
    const e = { ...valid(), DATABASE_URL: "mysql://x", SERVICE_SECRET: "short", PORT: "70000" };
    let message = "";
    try {
      parseEnv(e);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid environment configuration:/);
    expect(message).toContain("DATABASE_URL: must be a postgresql:// URL");
    expect(message).toContain("SERVICE_SECRET: SERVICE_SECRET must be at least 32 characters");
    expect(message).toMatch(/PORT: .*65535/);
  });

  it("refuses WEBHOOK_ALLOWED_PRIVATE_CIDRS when NODE_ENV=production, and admits it otherwise", () => {
    const production = { ...valid(), NODE_ENV: "production", WEBHOOK_ALLOWED_PRIVATE_CIDRS: "127.0.0.0/8" } as NodeJS.ProcessEnv;
    expect(() => parseEnv(production)).toThrowError(/WEBHOOK_ALLOWED_PRIVATE_CIDRS: must be empty when NODE_ENV=production/);
    expect(parseEnv({ ...production, WEBHOOK_ALLOWED_PRIVATE_CIDRS: "" }).WEBHOOK_ALLOWED_PRIVATE_CIDRS).toBe("");
    expect(parseEnv({ ...valid(), WEBHOOK_ALLOWED_PRIVATE_CIDRS: "127.0.0.0/8" }).WEBHOOK_ALLOWED_PRIVATE_CIDRS).toBe("127.0.0.0/8");
  });

  it("requires real values in production: nothing is defaulted", () => {
    const e: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    applyLocalDefaults(e);
    expect(e.DATABASE_URL).toBeUndefined();
    expect(() => parseEnv(e)).toThrowError(/DATABASE_URL/);
  });

  it("keeps values that are already set and can switch simulator mode off", () => {
    const e = { DATABASE_URL: "postgresql://x@h/db", SHOPIFY_SIMULATOR_URL: "" } as unknown as NodeJS.ProcessEnv;
    applyLocalDefaults(e);
    expect(e.DATABASE_URL).toBe("postgresql://x@h/db");
    expect(e.REDIS_URL).toBe(LOCAL_DEFAULTS.REDIS_URL);
    expect(e.SHOPIFY_SIMULATOR_URL).toBeUndefined();
  });

  it("refuses a malformed encryption key", () => {
    expect(() => parseEnv({ ...valid(), ENCRYPTION_KEY: "zz" })).toThrowError(/ENCRYPTION_KEY must be 64 hex characters/);
  });
});

describe("worker settings", () => {
  it("are checked like everything else", () => {
    expect(parseEnv(valid()).WORKER_CONCURRENCY).toBe(4);
    expect(() => parseEnv({ ...valid(), WORKER_LOCK_MS: "soon" })).toThrowError(/WORKER_LOCK_MS/);
    expect(() => parseEnv({ ...valid(), WORKER_CONCURRENCY: "0" })).toThrowError(/WORKER_CONCURRENCY/);
  });
});
