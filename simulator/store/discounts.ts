// Code discounts made by discountCodeBasicCreate (Admin API 2026-10): the percentage-off code a
// win-back e-mail carries. Refusals as Shopify words them, with DiscountErrorCode values: a blank
// title or code (BLANK), a code already used in the shop (TAKEN), a percentage outside (0, 1]
// (VALUE_OUTSIDE_RANGE), an end before the start (END_DATE_BEFORE_START_DATE), an unknown customer (INVALID).
import { newGid, type CodeDiscount, type Outcome, type ShopState, type SimState } from "../state";
import { ok, refuse } from "./outcome";

interface BasicCodeInput {
  title?: string | null;
  code?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
  usageLimit?: number | null;
  appliesOncePerCustomer?: boolean | null;
  context?: { all?: string | null; customers?: { add?: string[] | null } | null } | null;
  customerGets?: {
    value?: { percentage?: number | null } | null;
    items?: { all?: boolean | null } | null;
    appliesOnSubscription?: boolean | null;
  } | null;
}

const at = (...path: string[]) => ["basicCodeDiscount", ...path];

export function createBasicCodeDiscount(state: SimState, shop: ShopState, input: BasicCodeInput, now: Date): Outcome<CodeDiscount> {
  const title = input.title?.trim() ?? "";
  const code = input.code?.trim() ?? "";
  if (!title) return refuse("Title can't be blank", at("title"), "BLANK");
  if (!code) return refuse("Code can't be blank", at("code"), "BLANK");
  if (code.length > 255) return refuse("Code is too long (maximum is 255 characters)", at("code"), "TOO_LONG");
  const discounts = (shop.discounts ??= {});
  if (Object.values(discounts).some((d) => d.code.toLowerCase() === code.toLowerCase()))
    return refuse("Code must be unique. Please try a different code.", at("code"), "TAKEN");
  const percentage = input.customerGets?.value?.percentage;
  if (percentage === null || percentage === undefined) return refuse("Value can't be blank", at("customerGets", "value"), "BLANK");
  if (!(percentage > 0 && percentage <= 1))
    return refuse("Value must be between 0.0 and 1.0", at("customerGets", "value", "percentage"), "VALUE_OUTSIDE_RANGE");
  if (!input.customerGets?.items?.all) return refuse("Items can't be blank", at("customerGets", "items"), "BLANK");
  const startsAt = input.startsAt ?? now.toISOString();
  if (input.endsAt && Date.parse(input.endsAt) <= Date.parse(startsAt))
    return refuse("Ends at needs to be after starts_at", at("endsAt"), "END_DATE_BEFORE_START_DATE");
  const customerIds = input.context?.customers?.add ?? [];
  const unknown = customerIds.findIndex((id) => !shop.customers[id]);
  if (unknown >= 0) return refuse("Customer does not exist", at("context", "customers", "add", String(unknown)), "INVALID");
  const discount: CodeDiscount = {
    id: newGid(state, "DiscountCodeNode"),
    title,
    code,
    percentage,
    customerIds,
    startsAt,
    endsAt: input.endsAt ?? null,
    usageLimit: input.usageLimit ?? null,
    appliesOncePerCustomer: input.appliesOncePerCustomer ?? false,
    appliesOnSubscription: input.customerGets?.appliesOnSubscription ?? false,
    createdAt: now.toISOString(),
  };
  discounts[discount.id] = discount;
  return ok(discount);
}

/** The DiscountCodeNode as Shopify's Admin API answers it (the fields a caller may select). */
export function gqlCodeDiscountNode(d: CodeDiscount, now: Date) {
  const redeem = { __typename: "DiscountRedeemCode", id: d.id.replace("DiscountCodeNode", "DiscountRedeemCode"), code: d.code, asyncUsageCount: 0 };
  const status = Date.parse(d.startsAt) > now.getTime() ? "SCHEDULED" : d.endsAt && Date.parse(d.endsAt) <= now.getTime() ? "EXPIRED" : "ACTIVE";
  return {
    __typename: "DiscountCodeNode",
    id: d.id,
    codeDiscount: {
      __typename: "DiscountCodeBasic",
      title: d.title,
      status,
      startsAt: d.startsAt,
      endsAt: d.endsAt,
      usageLimit: d.usageLimit,
      appliesOncePerCustomer: d.appliesOncePerCustomer,
      asyncUsageCount: 0,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
      summary: `${Math.round(d.percentage * 100)}% off entire order`,
      shortSummary: `${Math.round(d.percentage * 100)}% off`,
      codes: {
        nodes: [redeem],
        edges: [{ cursor: d.id, node: redeem }],
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: d.id, endCursor: d.id },
      },
    },
  };
}
