// The gift's line properties (the theme block extensions/subscriptions-theme/blocks/gift.liquid
// writes them; Shopify's checkout copies line properties onto the contract line's custom
// attributes). A leading underscore keeps a property out of the shopper's cart and order pages,
// as Shopify's themes hide such properties. docs/decisions/136-gift-lifecycle.md.
import { z } from "zod";
import type { PlatformContract } from "../../platform/port";

export const GIFT_ATTRIBUTES = {
  recipientName: "_gift_recipient_name",
  recipientEmail: "_gift_recipient_email",
  message: "_gift_message",
  sendOn: "_gift_send_on",
} as const;

export interface GiftRequest {
  recipientName: string | null;
  recipientEmail: string;
  message: string | null;
  /** YYYY-MM-DD in the shop's time zone; null = as soon as the gift is recorded. */
  sendOn: string | null;
}

const email = z.string().trim().toLowerCase().email().max(254);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * The gift a contract's lines carry, or null: a line with a valid recipient e-mail makes it one.
 * Free text is trimmed and bounded (a message of at most 1,000 characters); a malformed send day
 * means "now" rather than no gift at all (the shopper paid for a gift).
 */
export function giftRequestOf(contract: Pick<PlatformContract, "lines">): GiftRequest | null {
  for (const line of contract.lines) {
    const attrs = new Map((line.customAttributes ?? []).map((a) => [a.key, a.value]));
    const to = email.safeParse(attrs.get(GIFT_ATTRIBUTES.recipientEmail) ?? "");
    if (!to.success) continue;
    const text = (key: string, max: number) => attrs.get(key)?.trim().slice(0, max) || null;
    const sendOn = day.safeParse(attrs.get(GIFT_ATTRIBUTES.sendOn)?.trim() ?? "");
    return {
      recipientName: text(GIFT_ATTRIBUTES.recipientName, 200),
      recipientEmail: to.data,
      message: text(GIFT_ATTRIBUTES.message, 1000),
      sendOn: sendOn.success ? sendOn.data : null,
    };
  }
  return null;
}
