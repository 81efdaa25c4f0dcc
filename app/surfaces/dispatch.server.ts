// The three API surfaces by base path. Remix routes hand requests of the seven standard methods
// to a surface through app/routes/api.*.v1.$.ts; any other method (PROPFIND, PURGE, ...) never
// reaches a Remix route, so server.ts hands it here instead and it still gets the kernel's
// answer: 401 before authentication, 405 method_not_allowed after.
import { adminApi } from "./admin/index.server";
import { customerApi } from "./customer/index.server";
import { storefrontApi } from "./storefront/index.server";
import { ADMIN_SURFACE, CUSTOMER_SURFACE, STOREFRONT_SURFACE } from "./config";

const SURFACES = [
  [ADMIN_SURFACE.basePath, adminApi],
  [STOREFRONT_SURFACE.basePath, storefrontApi],
  [CUSTOMER_SURFACE.basePath, customerApi],
] as const;

/** The surface's answer, or null when the path belongs to no surface. */
export function handleApiRequest(request: Request): Promise<Response> | null {
  const { pathname } = new URL(request.url);
  for (const [base, surface] of SURFACES) {
    if (pathname === base || pathname.startsWith(`${base}/`)) return surface.handle(request);
  }
  return null;
}
