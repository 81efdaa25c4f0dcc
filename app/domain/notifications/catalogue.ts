// The messages the app sends (docs/email.md): each kind's category (what a customer's preference
// gates; `account` is essential mail, never gated), its default template (Liquid, rendered in
// strict mode: an unknown variable is an error, not an empty string) and the variables it offers.
import type { CategoryKey } from "../customer/notification-preferences.server";

export type MailCategory = CategoryKey | "account";

export interface MessageKind {
  kind: string;
  label: string;
  category: MailCategory;
  subject: string;
  body: string;
  variables: string[];
}

const CONTRACT_VARS = ["shop_name", "contract_number", "product_title", "next_billing_date", "amount", "manage_url"];

const BOX_VARS = [...CONTRACT_VARS, "box_title", "box_period", "pick_until"];

export const MESSAGE_KINDS = [
  {
    kind: "renewal_reminder",
    label: "Renewal reminder",
    category: "reminders",
    subject: "Your {{ product_title }} renews on {{ next_billing_date }}",
    body: "Hello,\n\nYour subscription to {{ product_title }} (#{{ contract_number }}) renews on {{ next_billing_date }} for {{ amount }}.\n\nTo skip, pause or change it, visit {{ manage_url }}\n\n{{ shop_name }}",
    variables: CONTRACT_VARS,
  },
  {
    kind: "payment_failed",
    label: "Payment failed (a retry follows)",
    category: "account",
    subject: "We couldn't charge your card for {{ product_title }}",
    body: "Hello,\n\nThe charge of {{ amount }} for {{ product_title }} did not go through. We will try again on {{ retry_date }}.\n\nWe have asked Shopify to e-mail you a secure link to update your card.\n\n{{ shop_name }}",
    variables: [...CONTRACT_VARS, "retry_date"],
  },
  {
    kind: "payment_failed_final",
    label: "Payment failed (last attempt)",
    category: "account",
    subject: "Your {{ product_title }} subscription needs a new card",
    body: "Hello,\n\nThe last attempt to charge {{ amount }} for {{ product_title }} failed, so the subscription is on hold.\n\nShopify has e-mailed you a secure link to update your card; once it is updated, visit {{ manage_url }} to resume.\n\n{{ shop_name }}",
    variables: CONTRACT_VARS,
  },
  {
    kind: "payment_method_expiring",
    label: "Card expiring",
    category: "account",
    subject: "Your {{ card_brand }} ending in {{ card_last4 }} expires soon",
    body: "Hello,\n\nThe card your subscription is charged to ({{ card_brand }} ending in {{ card_last4 }}) expires at the end of {{ card_expiry }}.\n\nShopify will e-mail you a secure link to update it, or visit {{ manage_url }}\n\n{{ shop_name }}",
    variables: ["shop_name", "card_brand", "card_last4", "card_expiry", "manage_url"],
  },
  {
    kind: "box_menu_published",
    label: "Box menu open",
    category: "box",
    subject: "The {{ box_period }} menu for your {{ box_title }} is open",
    body: "Hello,\n\nThe {{ box_period }} menu for your {{ box_title }} is ready. Pick what goes in your box until {{ pick_until }}; your next charge is on {{ next_billing_date }}.\n\nTo pick, visit {{ manage_url }}\n\n{{ shop_name }}",
    variables: BOX_VARS,
  },
  {
    kind: "box_reminder",
    label: "Box reminder (before the cutoff)",
    category: "box",
    subject: "Pick your {{ box_title }} before {{ pick_until }}",
    body: "Hello,\n\nYou have not picked your {{ box_period }} {{ box_title }} yet. Picking closes on {{ pick_until }}; after that we send the box as it stands.\n\nTo pick, visit {{ manage_url }}\n\n{{ shop_name }}",
    variables: BOX_VARS,
  },
  {
    kind: "subscription_paused",
    label: "Pause confirmation",
    category: "orders",
    subject: "Your {{ product_title }} subscription is paused",
    body: "Hello,\n\nYour subscription to {{ product_title }} (#{{ contract_number }}) is paused. Nothing will be charged until you resume it at {{ manage_url }}\n\n{{ shop_name }}",
    variables: CONTRACT_VARS,
  },
  {
    kind: "subscription_resumed",
    label: "Resume confirmation",
    category: "orders",
    subject: "Your {{ product_title }} subscription is active again",
    body: "Hello,\n\nYour subscription to {{ product_title }} (#{{ contract_number }}) is active again. The next charge is on {{ next_billing_date }}.\n\n{{ shop_name }}",
    variables: CONTRACT_VARS,
  },
  {
    kind: "subscription_skipped",
    label: "Skip confirmation",
    category: "orders",
    subject: "Your next {{ product_title }} delivery is skipped",
    body: "Hello,\n\nWe skipped one delivery of {{ product_title }} (#{{ contract_number }}). The next charge is on {{ next_billing_date }}.\n\n{{ shop_name }}",
    variables: CONTRACT_VARS,
  },
  {
    kind: "subscription_cancelled",
    label: "Cancellation confirmation",
    category: "account",
    subject: "Your {{ product_title }} subscription is cancelled",
    body: "Hello,\n\nYour subscription to {{ product_title }} (#{{ contract_number }}) is cancelled. You will not be charged again.\n\n{{ shop_name }}",
    variables: CONTRACT_VARS,
  },
  {
    kind: "gift_claim",
    label: "Gift: claim your gift (to the recipient)",
    category: "account",
    subject: "{{ gifter_name }} sent you a gift from {{ shop_name }}",
    body: "Hello {{ recipient_name }},\n\n{{ gifter_name }} has given you {{ product_title }}.\n\n{{ gift_message }}\n\nTell us where to send it: {{ claim_url }}\nThe link works once, until {{ claim_until }}.\n\n{{ shop_name }}",
    variables: ["shop_name", "gifter_name", "recipient_name", "product_title", "gift_message", "claim_url", "claim_until"],
  },
  {
    kind: "gift_bounced",
    label: "Gift: the recipient's e-mail bounced (to the gifter)",
    category: "account",
    subject: "We couldn't deliver your gift's e-mail to {{ recipient_email }}",
    body: "Hello,\n\nThe e-mail about your gift of {{ product_title }} could not be delivered to {{ recipient_email }}.\n\nReply to this e-mail with the right address and we will send it again.\n\n{{ shop_name }}",
    variables: ["shop_name", "product_title", "recipient_email"],
  },
  {
    // A win-back campaign's offer (docs/decisions/117-winback-campaign-job.md). return_url is
    // signed and put in when the message is rendered (send.server.ts), never stored in the outbox.
    kind: "winback_offer",
    label: "Win-back offer",
    category: "winback",
    subject: "Come back to {{ product_title }}: {{ offer }}",
    body: "Hello,\n\nWe miss you. {{ offer }}{% if discount_code != blank %} Use the code {{ discount_code }} at checkout.{% endif %}\n\nTo start your {{ product_title }} subscription again with one click, visit {{ return_url }}\n\n{{ shop_name }}",
    variables: ["shop_name", "product_title", "offer", "discount_code", "return_url"],
  },
] as const satisfies readonly MessageKind[];

export type MessageKindName = (typeof MESSAGE_KINDS)[number]["kind"];

export function messageKind(kind: string): MessageKind | undefined {
  return MESSAGE_KINDS.find((k) => k.kind === kind);
}

export const isEssential = (kind: string) => messageKind(kind)?.category === "account";

/** What the preview and the test send render with. */
export const SAMPLE_VARIABLES: Record<string, string> = {
  shop_name: "Example Coffee Co.",
  contract_number: "1001",
  product_title: "Coffee beans, 1 kg",
  next_billing_date: "March 14, 2031",
  amount: "24.00 USD",
  manage_url: "https://example-coffee.myshopify.com/account",
  retry_date: "March 17, 2031",
  card_brand: "Visa",
  card_last4: "4242",
  card_expiry: "12/2030",
  box_title: "Treat box",
  box_period: "March 2031",
  pick_until: "March 11, 2031 at 12:00 AM",
  gifter_name: "Ada",
  recipient_name: "Grace",
  gift_message: "Happy birthday!",
  claim_url: "https://example-coffee.example/gifts/claim/sample",
  claim_until: "April 13, 2031",
  recipient_email: "grace@example.com",
  offer: "15% off your next order.",
  discount_code: "WB-7KQ2M9XD",
  return_url: "https://example-coffee.myshopify.com/apps/subscriptions/winback/return",
};
