// The Storefront API surface: /api/storefront/v1/*.
import { createSurface } from "../../http/kernel.server";
import { STOREFRONT_SURFACE } from "../config";
import { storefrontRoutes } from "./routes";

export const storefrontApi = createSurface(STOREFRONT_SURFACE, storefrontRoutes, {});
