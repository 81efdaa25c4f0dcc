// Shopify's billing attempt error codes (SubscriptionBillingAttemptErrorCode, 2026-10) said as a
// merchant would say them to a customer, for the Risk Center and the subscription detail page. An
// unknown code still reads as a sentence, never as the code.
const REASONS: Record<string, string> = {
  CARD_DECLINED: "The card was declined.",
  PAYMENT_METHOD_DECLINED: "The card was declined.",
  DO_NOT_HONOR: "The card was declined.",
  RETRY_DECLINED: "The card was declined again.",
  CALL_ISSUER: "The card was declined: the customer must call their bank.",
  INSUFFICIENT_FUNDS: "The card has insufficient funds.",
  TRANSACTION_LIMIT_EXCEEDED: "The charge is over the card's limit.",
  EXPIRED_CARD: "The card has expired.",
  EXPIRED_PAYMENT_METHOD: "The card has expired.",
  INVALID_EXPIRY_DATE: "The card's expiry date is not valid.",
  INCORRECT_CVC: "The card's security code is wrong.",
  INVALID_CVC: "The card's security code is wrong.",
  CARD_NUMBER_INCORRECT: "The card number is incorrect.",
  INCORRECT_NUMBER: "The card number is incorrect.",
  INVALID_NUMBER: "The card number is incorrect.",
  INCORRECT_ZIP: "The billing postal code is wrong.",
  INCORRECT_ADDRESS: "The billing address is wrong.",
  INVALID_BILLING_ADDRESS: "The billing address is wrong.",
  PAYMENT_METHOD_NOT_FOUND: "The customer has no payment method on file.",
  PAYMENT_METHOD_NOT_SPECIFIED: "The customer has no payment method on file.",
  INVALID_PAYMENT_METHOD: "The payment method is not valid.",
  AUTHENTICATION_REQUIRED: "The customer's bank asked the customer to confirm the payment.",
  AUTHENTICATION_FAILED: "The customer did not confirm the payment with their bank.",
  AUTHENTICATION_ERROR: "The customer did not confirm the payment with their bank.",
  FRAUD_SUSPECTED: "The payment was stopped as suspected fraud.",
  BUYER_CANCELED_PAYMENT_METHOD: "The customer removed the payment method.",
  CUSTOMER_NOT_FOUND: "The customer no longer exists in Shopify.",
  INVALID_SHIPPING_ADDRESS: "The delivery address is not valid.",
  INSUFFICIENT_INVENTORY: "A product was out of stock.",
  INVENTORY_ALLOCATIONS_NOT_FOUND: "A product was out of stock.",
  TRANSIENT_ERROR: "The payment provider had a temporary error.",
  PROCESSING_ERROR: "The payment provider had a temporary error.",
  PAYMENT_PROVIDER_ERROR: "The payment provider had an error.",
  PAYMENT_PROVIDER_IS_NOT_ENABLED: "The store's payment provider is not enabled.",
  AMOUNT_TOO_SMALL: "The amount is too small to charge.",
};
const GENERIC_REASON = "The payment did not go through.";

export const chargeFailureReason = (code: string | null): string => (code ? (REASONS[code] ?? GENERIC_REASON) : GENERIC_REASON);
