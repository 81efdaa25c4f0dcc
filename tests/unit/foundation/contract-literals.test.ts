// The contract's own numbers (/docs, /docs/api/errors), written out here, never read back from the code:
// a test that compared the code with its own tables would pass whatever the tables said. If one
// of these fails, the code moved away from the contract (/docs#section/Conventions, /docs/api/errors).
import { ERROR_CODES } from "../../../app/infra/errors";
import { RETRY_LADDER_MS } from "../../../app/domain/outbound-webhooks/catalogue";
import { DEFAULT_LIMIT, MAX_LIMIT, clampLimit } from "../../../app/domain/shared/paging.server";
import { parseEnv } from "../../../app/env.server";
import { applyLocalDefaults } from "../../../app/infra/local-env";
import { errorsHtml } from "../../../app/surfaces/docs.server";
import { NOTIFICATION_EVENT_NAMES } from "../../../app/surfaces/notification-events";
import { NOTIFICATION_EVENTS } from "../../../prisma/demo-data";

const s = 1000;
const m = 60 * s;
const h = 60 * m;

/** The error code list with its statuses (/docs/api/errors). Add-only: a code may be added, never dropped. */
const SPEC_ERROR_CODES: Record<string, number> = {
  missing_credential: 401,
  invalid_credential: 401,
  credential_revoked: 401,
  credential_expired: 401,
  shop_unavailable: 401,
  insufficient_scope: 403,
  forbidden: 403,
  plan_upgrade_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_request: 400,
  export_in_progress: 409,
  state_conflict: 409,
  idempotency_conflict: 409,
  selection_closed: 409,
  invalid_cursor: 400,
  unsupported_api_version: 404,
  rate_limited: 429,
  internal_error: 500,
};

describe("the spec's literal values", () => {
  it("nineteen error codes, each with the spec's status, none dropped (add-only)", () => {
    expect(Object.keys(SPEC_ERROR_CODES)).toHaveLength(19);
    const codes: Record<string, number> = ERROR_CODES;
    for (const [code, status] of Object.entries(SPEC_ERROR_CODES)) expect({ code, status: codes[code] }).toEqual({ code, status });
  });

  it("every one of the nineteen has its anchored section in /docs/api/errors (doc_url resolves)", () => {
    const html = errorsHtml();
    for (const code of Object.keys(SPEC_ERROR_CODES)) expect(html, code).toContain(`<section id="${code}">`);
  });

  it("the delivery ladder is 0 s, 30 s, 2 m, 10 m, 1 h, 6 h: six attempts", () => {
    expect([...RETRY_LADDER_MS]).toEqual([0, 30 * s, 2 * m, 10 * m, 1 * h, 6 * h]);
  });

  it("a delivery attempt times out after 10 seconds unless configured lower", () => {
    const e = {} as unknown as NodeJS.ProcessEnv;
    applyLocalDefaults(e);
    delete e.WEBHOOK_TIMEOUT_MS;
    expect(parseEnv(e).WEBHOOK_TIMEOUT_MS).toBe(10 * s);
  });

  it("a page is 50 rows by default and at most 250, an over-large value clamped", () => {
    expect([DEFAULT_LIMIT, MAX_LIMIT]).toEqual([50, 250]);
    expect([clampLimit(undefined), clampLimit("251"), clampLimit("100000"), clampLimit("250")]).toEqual([50, 250, 250, 250]);
  });
});

describe("the notification event catalogue", () => {
  it("holds every event the demo log is seeded with", () => {
    const names: readonly string[] = NOTIFICATION_EVENT_NAMES;
    for (const n of NOTIFICATION_EVENTS) expect(names, n.event).toContain(n.event);
  });
});
