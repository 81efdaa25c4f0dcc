// The merchant's allowed origins (docs/decisions/132-allowed-origins.md): a page on an origin
// the shop has not listed is refused POST /session; once the merchant saves the origin on
// Storefront access, the same request is answered with CORS headers. Bad entries are refused in
// words and change nothing; every save and every refusal leaves an audit row.
import { prisma } from "../../../app/db.server";
import { allowedOrigins, checkOrigins, saveAllowedOrigins } from "../../../app/domain/keys/origins.server";
import { startStack, type Stack } from "../../support/stack";
import { customerToken, seedCustomerShop, type CustomerShop } from "../../support/customer-factories";
import { client } from "./helpers";

const PORTAL = "https://portal.brand.example";
let stack: Stack;
let s: CustomerShop;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  stack = await startStack({ workers: false });
  s = await seedCustomerShop(stack.control, stack.installShop);
  api = client(stack, () => s);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const shopId = async () => (await prisma.shop.findUniqueOrThrow({ where: { domain: s.domain } })).id;
const session = async (origin: string) =>
  api.call("POST", "/session", { origin, body: { customer_access_token: await customerToken(stack.control, s.domain, s.customers.a) } });

describe("checkOrigins", () => {
  it("keeps scheme and host, lower case, once each; localhost may be plain http", () => {
    expect(
      checkOrigins(["https://Portal.Brand.example/", "", "  https://portal.brand.example  ", "http://localhost:3000", "https://shop.example:8443"]),
    ).toEqual({
      ok: true,
      origins: ["https://portal.brand.example", "http://localhost:3000", "https://shop.example:8443"],
    });
  });

  it.each([
    ["portal.brand.example", "is not a web address. Write it with its scheme, such as https://shop.example.com."],
    ["ftp://portal.brand.example", "is not a web address"],
    ["http://portal.brand.example", "must start with https:// (plain http is accepted only for localhost, while you develop)."],
    ["https://portal.brand.example/account", "has a path after the host. Write only the scheme and host, such as https://portal.brand.example."],
    ["https://portal.brand.example?x=1", "has a path after the host"],
    ["https://user:pw@portal.brand.example", "must not contain a user name or password."],
  ])("refuses %s in words", (entry, words) => {
    const r = checkOrigins([entry]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toContain(`“${entry}”`);
      expect(r.error).toContain(words);
    }
  });

  it("refuses more than 20 addresses", () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`);
    expect(checkOrigins(many)).toEqual({ ok: false, error: "List at most 20 addresses." });
  });
});

describe("Storefront access over real HTTP", () => {
  it("an unlisted origin is refused POST /session; saved, it is answered with CORS headers; removed, refused again", async () => {
    const id = await shopId();
    const before = await session(PORTAL);
    expect(before.status).toBe(401);
    expect(before.body.error.code).toBe("invalid_credential");
    expect(before.headers.get("access-control-allow-origin")).toBeNull();

    expect(await saveAllowedOrigins(id, [PORTAL, "http://localhost:3000"])).toEqual({ ok: true, origins: [PORTAL, "http://localhost:3000"] });
    expect(await allowedOrigins(id)).toEqual([PORTAL, "http://localhost:3000"]);
    const after = await session(PORTAL);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.headers.get("access-control-allow-origin")).toBe(PORTAL);

    const row = await prisma.auditEvent.findFirstOrThrow({ where: { shopId: id, action: "settings.allowed_origins", outcome: "success" } });
    expect(row.targetType).toBe("settings");
    expect(row.changes).toEqual({ allowedOrigins: { before: [], after: [PORTAL, "http://localhost:3000"] } });

    expect((await saveAllowedOrigins(id, ["http://localhost:3000"])).ok).toBe(true);
    expect((await session(PORTAL)).status).toBe(401);
  });

  it("a refused list changes nothing and leaves a failure row", async () => {
    const id = await shopId();
    const kept = await allowedOrigins(id);
    const r = await saveAllowedOrigins(id, ["https://ok.example", "not an origin"]);
    expect(r).toEqual({ ok: false, error: "“not an origin” is not a web address. Write it with its scheme, such as https://shop.example.com." });
    expect(await allowedOrigins(id)).toEqual(kept);
    const failure = await prisma.auditEvent.findFirstOrThrow({ where: { shopId: id, action: "settings.allowed_origins", outcome: "failure" } });
    expect(failure.errorCode).toBe("invalid_request");
  });
});
