// The shapes of the ids a path carries, checked by the route's params schema before any query
// (a NUL byte or stray text never reaches PostgreSQL). The kernel separately refuses control
// characters in every path parameter (app/http/kernel.server.ts).
import { z } from "zod";

/** gid://shopify/SubscriptionContract/<number> (docs/decisions/020-admin-api-read-shapes.md). */
export const contractGid = z
  .string()
  .regex(/^gid:\/\/shopify\/SubscriptionContract\/[0-9]{1,20}$/, "must be gid://shopify/SubscriptionContract/<number>")
  .describe("Contract id, gid://shopify/SubscriptionContract/<number>, percent-encoded")
  .meta({ example: "gid://shopify/SubscriptionContract/1001" });

/** gid://shopify/SubscriptionLine/<id>: Shopify's line ids are numbers or UUIDs. */
export const lineGid = z
  .string()
  .regex(/^gid:\/\/shopify\/SubscriptionLine\/[A-Za-z0-9-]{1,64}$/, "must be gid://shopify/SubscriptionLine/<id>")
  .describe("Line id, gid://shopify/SubscriptionLine/<id>, percent-encoded")
  .meta({ example: "gid://shopify/SubscriptionLine/2001" });

/** The app's own row ids (cuid and friends): letters, digits, `_` and `-`. */
export const rowId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, '_' or '-'")
  .describe("Row id");
