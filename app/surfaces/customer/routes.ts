// The Customer API (spec 3): publishable key + X-Service-Session. Only POST /session runs
// without a session. Further portal endpoints join this table.
import { z } from "zod";
import { ApiError } from "../../errors";
import { customerForAccessToken, issueCustomerSession } from "../../domain/customer-session.server";
import { portalConfigFor } from "../../domain/shops.server";
import { INVALID_CREDENTIAL_MESSAGE, SESSION_HEADER } from "../../http/auth.server";
import { defineRoute, type AnyRoute } from "../../http/route";

const Session = z.strictObject({
  session_token: z.string().describe("svc_cst_…; send as X-Service-Session"),
  expires_at: z.string().describe("ISO 8601, 30 minutes after issue"),
  expires_in: z.number().int().describe("seconds (1800)"),
  customer_id: z.string(),
  session_header: z.literal(SESSION_HEADER),
});

const PortalConfig = z.strictObject({
  reschedule_max_months: z.number().int(),
  cancel_flow: z.strictObject({ offer_pause: z.boolean(), offer_skip: z.boolean(), show_reason_survey: z.boolean(), reasons: z.array(z.string()) }),
  portal_actions: z.strictObject({
    hide_skip: z.boolean(),
    hide_pause: z.boolean(),
    hide_cancel: z.boolean(),
    hide_edit_address: z.boolean(),
    hide_edit_quantity: z.boolean(),
    hide_swap_product: z.boolean(),
    hide_change_date: z.boolean(),
  }),
});

export const customerRoutes: AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/session",
    scopes: [],
    session: false,
    body: z.object({ customer_access_token: z.string().min(1).max(4096) }),
    summary: "Exchange a customer account access token for a 30-minute service session",
    description:
      "The platform token is not parsed or trusted: it is spent on one query for the customer it belongs to. Every refusal (no such customer, wrong shop, expired) is the same 401 invalid_credential. Refresh by calling again.",
    tags: ["Session"],
    response: Session,
    async handler(ctx) {
      const customerId = await customerForAccessToken(ctx.shop.domain, ctx.body.customer_access_token);
      if (!customerId) throw new ApiError("invalid_credential", INVALID_CREDENTIAL_MESSAGE);
      const s = issueCustomerSession({ shopId: ctx.shop.id, customerId, keyId: ctx.key.id });
      return {
        body: {
          session_token: s.token,
          expires_at: s.expiresAt.toISOString(),
          expires_in: s.expiresIn,
          customer_id: customerId,
          session_header: SESSION_HEADER,
        },
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/config",
    scopes: [],
    summary: "Portal configuration: reschedule window, cancel flow and the actions the merchant hid",
    tags: ["Portal"],
    response: PortalConfig,
    async handler(ctx) {
      return { body: await portalConfigFor(ctx.shop.id) };
    },
  }),
];
