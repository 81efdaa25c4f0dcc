// The Admin API surface: /api/admin/v1/*.
import { createSurface } from "../../http/kernel.server";
import { idempotencyHook } from "../../http/idempotency.server";
import { ADMIN_SURFACE } from "../config";
import { adminRoutes } from "./routes";

// Idempotency (docs/decisions/021-idempotency.md): the subscription writes run under app/http/idempotency.server.ts.
export const adminApi = createSurface(ADMIN_SURFACE, adminRoutes, { idempotency: idempotencyHook });
