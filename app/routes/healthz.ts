// GET /healthz: 200 {"status":"ok"} only when PostgreSQL and Redis both answer.
import { json } from "@remix-run/node";
import { checkHealth } from "../infra/health.server";

export async function loader() {
  const health = await checkHealth();
  return json(health.ok ? { status: "ok" } : { status: "unavailable", failing: health.failing }, {
    status: health.ok ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
