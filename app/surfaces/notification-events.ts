// The catalogue of notification events the `event` filter of GET /notifications accepts: the
// kinds of e-mail the app logs. A name outside it is 400 invalid_request naming the value (the
// rule for every enum query parameter, /docs#section/Decisions-on-open-points), never an empty
// list that looks like "none sent". The mail path's own catalogue of message kinds joins this list
// when it lands; until then these are the events the notification log holds (the demo seed writes
// the same names, checked by tests/unit/foundation/contract-literals.test.ts).
export const NOTIFICATION_EVENT_NAMES = [
  "renewal_reminder",
  "order_confirmation",
  "shipping_confirmation",
  "box_menu_published",
  "payment_failed",
  "payment_failed_final",
  "payment_method_expiring",
  "subscription_paused",
  "subscription_resumed",
  "subscription_skipped",
  "subscription_cancelled",
  "winback_offer",
] as const;
