// The three surfaces' fixed parameters (/docs#section/Surfaces; docs/decisions/011 and 013).
import type { SurfaceConfig } from "../http/kernel.server";
import { ADMIN_BUCKET, CUSTOMER_BUCKET, STOREFRONT_BUCKET } from "../http/rate-limit.server";

export const ADMIN_SURFACE: SurfaceConfig = {
  name: "admin",
  basePath: "/api/admin/v1",
  label: "Admin API",
  keyKind: "SECRET",
  bucket: ADMIN_BUCKET,
  cors: false, // server-to-server: a browser must never hold a secret key
  customerSession: false,
  noStore: false,
};

export const STOREFRONT_SURFACE: SurfaceConfig = {
  name: "storefront",
  basePath: "/api/storefront/v1",
  label: "Storefront API",
  keyKind: "PUBLISHABLE",
  bucket: STOREFRONT_BUCKET,
  cors: true,
  customerSession: false,
  noStore: false,
  // Short enough that a plan change reaches shoppers within a minute (decision 065).
  cacheMaxAgeSeconds: 30,
};

export const CUSTOMER_SURFACE: SurfaceConfig = {
  name: "customer",
  basePath: "/api/customer/v1",
  label: "Customer API",
  keyKind: "PUBLISHABLE",
  bucket: CUSTOMER_BUCKET,
  cors: true,
  customerSession: true,
  noStore: true,
};
