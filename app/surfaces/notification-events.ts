// The catalogue of notification events the `event` filter of GET /notifications accepts: the
// kinds of e-mail the app logs. A name outside it is 400 invalid_request naming the value (the
// rule for every enum query parameter, /docs#section/Decisions-on-open-points), never an empty
// list that looks like "none sent". The mail path's message kinds (app/domain/notifications/
// catalogue.ts, MESSAGE_KINDS) are all in it (tests/unit/notifications/quiet-hours-and-render.test.ts);
// the rest are events the log holds (the demo seed writes the same names, checked by
// tests/unit/foundation/contract-literals.test.ts).
export const NOTIFICATION_EVENT_NAMES = [
  "renewal_reminder",
  "order_confirmation",
  "shipping_confirmation",
  "box_menu_published",
  "box_reminder",
  "payment_failed",
  "payment_failed_final",
  "payment_method_expiring",
  "subscription_paused",
  "subscription_resumed",
  "subscription_skipped",
  "subscription_cancelled",
  "winback_offer",
  "gift_claim",
  "gift_bounced",
] as const;
