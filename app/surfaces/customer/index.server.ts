// The Customer API surface: /api/customer/v1/*.
import { createSurface } from "../../http/kernel.server";
import { CUSTOMER_SURFACE } from "../config";
import { customerRoutes } from "./routes";

export const customerApi = createSurface(CUSTOMER_SURFACE, customerRoutes, {});
