// The Admin API route table (reads and writes, exports, webhook management: /docs, group Admin API).
// Each entry is a defineRoute({...}) from app/http/route.ts; the kernel supplies auth, plan gate,
// rate limit, 404/405, scopes, validation, idempotency and the reference at /docs.
import { adminReadRoutes } from "./reads";
import { adminWriteRoutes } from "./writes";
import { adminExportRoutes } from "./exports";
import { adminWebhookRoutes } from "./webhooks";
import { adminAuditRoutes } from "./audit";
import { adminSchedulePreviewRoutes } from "../schedule-preview";

export const adminRoutes = [
  ...adminReadRoutes,
  ...adminSchedulePreviewRoutes,
  ...adminWriteRoutes,
  ...adminExportRoutes,
  ...adminWebhookRoutes,
  ...adminAuditRoutes,
];
