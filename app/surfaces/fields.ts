// Zod fields the surfaces share for wire values (query strings, JSON bodies): the one place a
// wire string becomes a typed value, so the domain receives Dates and checked ids
// (docs/decisions/045-route-entries.md).
import { z } from "zod";
import { isGid, parseIsoTimestamp } from "../domain/shared/query.server";

/** An ISO 8601 timestamp with `Z` or an offset (a bare date is midnight UTC), parsed to a Date. */
export const isoTimestamp = () =>
  z
    .string()
    .meta({ format: "date-time", example: "2030-03-01T00:00:00Z" })
    .transform((text, ctx) => {
      const d = parseIsoTimestamp(text);
      if (d) return d;
      ctx.issues.push({ code: "custom", input: text, message: `${JSON.stringify(text)} is not an ISO 8601 timestamp (e.g. 2030-03-01T00:00:00Z)` });
      return z.NEVER;
    });

/** A Shopify global id of one type, e.g. gid("ProductVariant") for gid://shopify/ProductVariant/<number>. */
export const gid = (type: string) =>
  z
    .string()
    .refine((v) => isGid(v, type), { message: `not a gid://shopify/${type}/<number>` })
    .meta({ description: `gid://shopify/${type}/<number>`, example: `gid://shopify/${type}/1001` });
