// The Admin API route table (spec 1 reads and writes, spec 2 exports, spec 3 webhook management).
// Each entry is a defineRoute({...}) from app/http/route.ts; the kernel supplies auth, plan gate,
// rate limit, 404/405, scopes, validation, idempotency and the reference at /docs.
import type { AnyRoute } from "../../http/route";
import { adminReadRoutes } from "./reads";
import { adminWriteRoutes } from "./writes";
import { adminExportRoutes } from "./exports";

export const adminRoutes: AnyRoute[] = [...adminReadRoutes, ...adminWriteRoutes, ...adminExportRoutes];
