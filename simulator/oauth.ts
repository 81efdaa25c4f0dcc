// POST /shops/<shop>/admin/oauth/access_token — token exchange (the embedded app's way to get
// an offline or online access token from a session token), as @shopify/shopify-api calls it.
import type { SimCore } from "./core";
import { verifyHs256 } from "./jwt";
import type { HttpAnswer } from "./http-answer";

const GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";
const OFFLINE = "urn:shopify:params:oauth:token-type:offline-access-token";
const ONLINE = "urn:shopify:params:oauth:token-type:online-access-token";

const refuse = (status: number, error: string, error_description: string): HttpAnswer => ({ status, body: { error, error_description } });

export function handleTokenExchange(core: SimCore, shopDomain: string, params: Record<string, unknown>): HttpAnswer {
  const answer = exchange(core, shopDomain, params);
  core.record(core.shop(shopDomain), {
    api: "oauth",
    operation: "tokenExchange",
    variables: { requested_token_type: params.requested_token_type },
    outcome: answer.status === 200 ? "ok" : "unauthorized",
  });
  return answer;
}

function exchange(core: SimCore, shopDomain: string, params: Record<string, unknown>): HttpAnswer {
  const shop = core.shop(shopDomain);
  if (params.client_id !== core.config.apiKey || params.client_secret !== core.config.apiSecret) {
    return refuse(401, "invalid_client", "Client authentication failed");
  }
  if (params.grant_type !== GRANT) return refuse(400, "unsupported_grant_type", "Only token exchange is simulated");
  if (params.subject_token_type !== ID_TOKEN) return refuse(400, "invalid_request", "subject_token_type must be an id_token");
  const claims = typeof params.subject_token === "string" ? verifyHs256(params.subject_token, core.config.apiSecret, core.now().getTime() / 1000) : null;
  if (!claims || claims.aud !== core.config.apiKey || claims.dest !== `https://${shopDomain}`) {
    return refuse(400, "invalid_subject_token", "Session token is invalid, expired or for another shop or app");
  }
  if (!shop?.installation) return refuse(400, "invalid_subject_token", "The app is not installed on this shop");
  const { accessToken, scope } = shop.installation;
  if (params.requested_token_type === ONLINE) {
    const userId = Number(claims.sub ?? 1);
    return {
      status: 200,
      body: {
        access_token: `${accessToken}_online_${userId}`,
        scope,
        expires_in: 86399,
        associated_user_scope: scope,
        associated_user: {
          id: userId,
          first_name: "Staff",
          last_name: "Member",
          email: `staff${userId}@${shopDomain}`,
          account_owner: true,
          locale: "en",
          collaborator: false,
          email_verified: true,
        },
      },
    };
  }
  if (params.requested_token_type !== OFFLINE) return refuse(400, "invalid_request", "Unknown requested_token_type");
  return { status: 200, body: { access_token: accessToken, scope } };
}
