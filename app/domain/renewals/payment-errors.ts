// Shopify's billing attempt error codes (SubscriptionBillingAttemptErrorCode, 2026-10) in the
// words a merchant reads on the Risk Center and the detail page: what happened and whose move it
// is. Codes not listed read as a declined payment; the code itself is never shown.
const WORDS: Record<string, string> = {
  INSUFFICIENT_FUNDS: "Insufficient funds",
  CARD_DECLINED: "Card declined by the bank",
  PAYMENT_METHOD_DECLINED: "Payment method declined",
  DO_NOT_HONOR: "Declined by the bank",
  CALL_ISSUER: "Declined: the customer must call their bank",
  RETRY_DECLINED: "Declined again by the bank",
  EXPIRED_CARD: "Card expired",
  EXPIRED_PAYMENT_METHOD: "Payment method expired",
  INVALID_EXPIRY_DATE: "Card expiry date not valid",
  INCORRECT_CVC: "Card security code wrong",
  INVALID_CVC: "Card security code wrong",
  INCORRECT_NUMBER: "Card number wrong",
  INVALID_NUMBER: "Card number wrong",
  CARD_NUMBER_INCORRECT: "Card number wrong",
  INCORRECT_ZIP: "Billing postal code wrong",
  INCORRECT_ADDRESS: "Billing address wrong",
  INVALID_BILLING_ADDRESS: "Billing address wrong",
  INVALID_SHIPPING_ADDRESS: "Delivery address not valid",
  AUTHENTICATION_REQUIRED: "The bank asks the customer to confirm the payment",
  AUTHENTICATION_FAILED: "The customer did not confirm the payment",
  AUTHENTICATION_ERROR: "The customer did not confirm the payment",
  FRAUD_SUSPECTED: "Stopped as suspected fraud",
  PAYMENT_METHOD_NOT_FOUND: "No payment method on file",
  PAYMENT_METHOD_NOT_SPECIFIED: "No payment method on file",
  BUYER_CANCELED_PAYMENT_METHOD: "The customer removed the payment method",
  INSUFFICIENT_INVENTORY: "Out of stock",
  INVENTORY_ALLOCATIONS_NOT_FOUND: "Out of stock",
  TRANSIENT_ERROR: "A temporary payment-provider error",
  PROCESSING_ERROR: "A temporary payment-provider error",
  PAYMENT_PROVIDER_ERROR: "A payment-provider error",
  TRANSACTION_LIMIT_EXCEEDED: "Over the card's limit",
  CUSTOMER_NOT_FOUND: "The customer no longer exists",
};

export const paymentErrorInWords = (code: string | null): string => (code ? (WORDS[code] ?? "Payment declined") : "Payment declined");
