// customerByIdentifier(emailAddress) for many e-mails in one request: the migration import finds
// the customers of a whole batch of rows with one round trip (docs/decisions/087-import-throughput.md).
// Each e-mail is its own aliased root field (c0, c1, ...), answered exactly as the single lookup
// (null when nobody has it). The document for n e-mails is the first n fields of the largest one,
// which is the exported constant the schema test validates.

/** E-mails per request (each lookup costs Shopify one query point). */
export const CUSTOMERS_BY_EMAIL_MAX = 50;

export function customersByEmailDocument(n: number): string {
  const count = Math.max(1, Math.min(n, CUSTOMERS_BY_EMAIL_MAX));
  const vars = Array.from({ length: count }, (_, i) => `$e${i}: String!`).join(", ");
  const fields = Array.from({ length: count }, (_, i) => `c${i}: customerByIdentifier(identifier: { emailAddress: $e${i} }) { id }`).join("\n    ");
  return `query CustomersByEmail(${vars}) {\n    ${fields}\n  }`;
}

export const CUSTOMERS_BY_EMAIL = customersByEmailDocument(CUSTOMERS_BY_EMAIL_MAX);

export type CustomersByEmailResult = Record<string, { id: string } | null>;

export const customersByEmailVariables = (emails: string[]) => Object.fromEntries(emails.map((e, i) => [`e${i}`, e]));

/** The customer id of each e-mail of the request (null: nobody has it), in the order asked. */
export const mapCustomersByEmail = (r: CustomersByEmailResult, emails: string[]): (string | null)[] => emails.map((_, i) => r[`c${i}`]?.id ?? null);
