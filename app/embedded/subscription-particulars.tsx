// The detail page's answers to a customer's questions: who they are and where it ships, how they
// pay, and what was charged. Live reads that failed show a banner instead of a blank
// (docs/decisions/135-subscription-detail-live.md).
import { Banner, Text } from "@shopify/polaris";
import { useFormat } from "./shop-format";
import { SectionCard } from "./section-card";

interface Address {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
}
type Live<T> = { unavailable: false; value: T | null } | { unavailable: true };
interface Customer {
  name: string | null;
  email: string | null;
  phone: string | null;
  address: Address | null;
}
interface PaymentMethod {
  kind: string;
  brand: string | null;
  last4: string | null;
  expiryMonth: number | null;
  expiryYear: number | null;
  paypalEmail: string | null;
}
interface Charge {
  at: string;
  number: number;
  cycle_at: string;
  outcome: string;
  reason: string | null;
  amount: { amount: string; currency_code: string } | null;
}

const Unavailable = ({ what }: { what: string }) => (
  <Banner tone="warning" title={`Shopify did not answer, so the ${what} cannot be shown right now`}>
    <p>Reload the page in a moment.</p>
  </Banner>
);

const addressLines = (a: Address): string[] =>
  [
    [a.firstName, a.lastName].filter(Boolean).join(" "),
    a.company,
    a.address1,
    a.address2,
    [a.zip, a.city].filter(Boolean).join(" "),
    [a.province, a.country].filter(Boolean).join(", "),
    a.phone,
  ].filter((l): l is string => !!l);

export function CustomerCard({ customer }: { customer: Live<Customer> }) {
  return (
    <SectionCard title="Customer" gap="200">
      {customer.unavailable ? (
        <Unavailable what="customer" />
      ) : !customer.value ? (
        <Text as="p">This customer no longer exists in Shopify.</Text>
      ) : (
        <>
          <Text as="p" fontWeight="semibold">
            {customer.value.name ?? customer.value.email ?? "No name"}
          </Text>
          {customer.value.email && (
            <Text as="p" breakWord>
              {customer.value.email}
            </Text>
          )}
          <Text as="h3" variant="headingSm">
            Delivery address
          </Text>
          {customer.value.address ? (
            <address aria-label="Delivery address" style={{ fontStyle: "normal" }}>
              {addressLines(customer.value.address).map((l, i) => (
                <Text as="p" key={i} breakWord>
                  {l}
                </Text>
              ))}
            </address>
          ) : (
            <Text as="p">No address on file.</Text>
          )}
        </>
      )}
    </SectionCard>
  );
}

const paymentText = (p: PaymentMethod): string => {
  if (p.kind === "paypal") return `PayPal${p.paypalEmail ? ` (${p.paypalEmail})` : ""}`;
  const brand = p.brand ? p.brand.charAt(0).toUpperCase() + p.brand.slice(1).replace(/_/g, " ") : p.kind === "shop_pay" ? "Shop Pay" : "Card";
  const last4 = p.last4 ? ` ending in ${p.last4}` : "";
  const expiry = p.expiryMonth && p.expiryYear ? `, expires ${String(p.expiryMonth).padStart(2, "0")}/${p.expiryYear}` : "";
  return `${brand}${last4}${expiry}`;
};

export function PaymentCard({ payment }: { payment: Live<PaymentMethod> }) {
  return (
    <SectionCard title="Payment method" gap="200">
      {payment.unavailable ? (
        <Unavailable what="payment method" />
      ) : payment.value ? (
        <Text as="p">{paymentText(payment.value)}</Text>
      ) : (
        <Text as="p">No payment method on the subscription; charges cannot be taken.</Text>
      )}
    </SectionCard>
  );
}

const OUTCOME_LABEL: Record<string, string> = {
  pending: "Waiting for the bank",
  paid: "Paid",
  failed: "Failed",
  needs_authentication: "Waiting for the customer to confirm",
  refused: "Not attempted",
};

export function ChargesCard({ charges }: { charges: Charge[] }) {
  const { formatDate, formatDateTime, formatMoney } = useFormat();
  return (
    <SectionCard title="Charges" gap="200">
      {charges.length === 0 ? (
        <Text as="p">No charge has been made yet.</Text>
      ) : (
        <ul aria-label="Charges" style={{ margin: 0, paddingLeft: "1.2em" }}>
          {charges.map((c, i) => (
            <li key={i}>
              <Text as="span">
                {formatDateTime(c.at)}: {OUTCOME_LABEL[c.outcome] ?? c.outcome}, {formatMoney(c.amount)}
                {c.number > 1 ? ` (retry ${c.number - 1} of the charge due ${formatDate(c.cycle_at)})` : ""}
                {c.reason ? `. ${c.reason}` : ""}
              </Text>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
