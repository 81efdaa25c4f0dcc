// The real Customer surface: session exchange, portal config, CORS. The session exchange spends
// a customer access token at the platform simulator through the production adapter (no mocked
// port). (The Storefront API is tested over real HTTP against the simulator in
// tests/integration/storefront/api.test.ts.)
import { prisma } from "../../../app/db.server";
import { customerApi } from "../../../app/surfaces/customer/index.server";
import { CUSTOMER_SURFACE } from "../../../app/surfaces/config";
import { envelopeOf, keyFor, principalFor, req } from "./helpers";
import { customerToken } from "../../support/customer-factories";
import { useStack } from "../../support/stack";

const stack = useStack({ workers: false });
const S = CUSTOMER_SURFACE;
const json = { "Content-Type": "application/json" };

/** A shop installed on both sides with one customer at the simulator, and a publishable key. */
async function shopWithCustomer() {
  const { domain, shopId } = await stack.installShop();
  const customer = await stack.control.call<{ id: string }>("POST", `${stack.control.shop(domain)}/customers`, { firstName: "Ada", email: null });
  const token = await customerToken(stack.control, domain, customer.id);
  const pk = await keyFor(shopId, "PUBLISHABLE", []);
  return { domain, shopId, customerId: customer.id, token, pk };
}

describe("Customer API", () => {
  it("POST /session exchanges a customer token for a working 30-minute session", async () => {
    const s = await shopWithCustomer();
    const res = await customerApi.handle(
      req(S, "POST", "/session", { token: s.pk.key }, { body: JSON.stringify({ customer_access_token: s.token }), headers: json }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ customer_id: s.customerId, expires_in: 1800, session_header: "X-Service-Session" });
    expect(String(body.session_token)).toMatch(/^svc_cst_/);
    expect(new Date(String(body.expires_at)).getTime() - Date.now()).toBeGreaterThan(1790_000);
    // The token was spent at the platform: one Customer Account API call.
    expect((await stack.control.operations(s.domain)).filter((o) => o.operation === "customer")).toHaveLength(1);

    const cfg = await customerApi.handle(req(S, "GET", "/config", { token: s.pk.key, session: String(body.session_token) }));
    expect(cfg.status).toBe(200);
    expect(await cfg.json()).toEqual({
      reschedule_max_months: 3,
      cancel_flow: { offer_pause: true, offer_skip: true, show_reason_survey: true, reasons: [] },
      portal_actions: {
        hide_skip: false,
        hide_pause: false,
        hide_cancel: false,
        hide_edit_address: false,
        hide_edit_quantity: false,
        hide_swap_product: false,
        hide_change_date: false,
      },
    });
  });

  it("every refused exchange is the same 401 invalid_credential", async () => {
    const s = await shopWithCustomer();
    const a = await envelopeOf(
      await customerApi.handle(req(S, "POST", "/session", { token: s.pk.key }, { body: JSON.stringify({ customer_access_token: "bad" }), headers: json })),
    );
    const b = await envelopeOf(
      await customerApi.handle(req(S, "POST", "/session", { token: "svc_pk_x" }, { body: JSON.stringify({ customer_access_token: s.token }), headers: json })),
    );
    expect([a.code, b.code]).toEqual(["invalid_credential", "invalid_credential"]);
    expect(a.message).toBe(b.message);
  });

  it("GET /config reflects the shop's PortalConfig", async () => {
    const { shop, creds } = await principalFor(S, {}, []);
    await prisma.portalConfig.create({ data: { shopId: shop.id, rescheduleMaxMonths: 6, hiddenActions: ["skip"], cancelReasons: ["Too much"] } });
    const body = (await (await customerApi.handle(req(S, "GET", "/config", creds))).json()) as {
      reschedule_max_months: number;
      portal_actions: { hide_skip: boolean };
    };
    expect(body.reschedule_max_months).toBe(6);
    expect(body.portal_actions.hide_skip).toBe(true);
  });

  it("answers a preflight for any origin with the allowed methods and headers", async () => {
    const res = await customerApi.handle(
      new Request(`http://127.0.0.1${S.basePath}/config`, {
        method: "OPTIONS",
        headers: { Origin: "https://shop.example", "Access-Control-Request-Method": "GET" },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://shop.example");
    expect(res.headers.get("Access-Control-Allow-Headers")).toBe("Authorization, X-Service-Session, Content-Type, Idempotency-Key");
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    expect(res.headers.get("Vary")).toBe("Origin");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("allows the shop's own domain, its storefront origins and PortalConfig.allowedOrigins; errors carry the same CORS headers", async () => {
    const { shop, creds } = await principalFor(S, { storefrontOrigins: ["https://brand.example"] }, []);
    await prisma.portalConfig.create({ data: { shopId: shop.id, allowedOrigins: ["https://headless.example"] } });
    for (const origin of [`https://${shop.domain}`, "https://brand.example", "https://headless.example"]) {
      const ok = await customerApi.handle(req(S, "GET", "/config", creds, { headers: { Origin: origin } }));
      expect(ok.status).toBe(200);
      expect(ok.headers.get("Access-Control-Allow-Origin")).toBe(origin);
      const err = await customerApi.handle(req(S, "GET", "/nope", creds, { headers: { Origin: origin } }));
      expect(err.status).toBe(404);
      expect(err.headers.get("Access-Control-Allow-Origin")).toBe(origin);
      expect(err.headers.get("Access-Control-Expose-Headers")).toContain("X-Service-Request-Id");
    }
    const bad = await customerApi.handle(req(S, "GET", "/config", creds, { headers: { Origin: "https://evil.example" } }));
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_credential");
    expect(bad.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
