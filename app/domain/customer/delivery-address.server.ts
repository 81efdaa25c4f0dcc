// The subscriber's delivery address (docs/decisions/155-portal-delivery-address.md): read from the
// platform to prefill the hosted portal's form, checked field by field, and written through the
// platform's draft flow (subscriptionContractUpdate → subscriptionDraftUpdate(deliveryMethod) →
// subscriptionDraftCommit, as a gift's claim does). Like every portal write it is refused when
// the merchant hides it, asks the platform who owns the contract first, leaves an audit row (which
// names the fields that changed, never their values: addresses are not stored,
// docs/decisions/134-customer-names-live.md) and brings the mirror up to date after.
import { auditOutcome, type Changes } from "../audit/audit.server";
import { platformFor } from "../../platform/index.server";
import type { PlatformAddress, ShippingAddressInput } from "../../platform/port";
import { platformApiError, platformErrors } from "../shared/platform-call.server";
import { assertShown } from "./hosted-portal.server";
import { assertCustomerOwns, refreshMirror, type PortalContext } from "./portal.server";

/** The form's fields, in the order the form shows them. */
export const ADDRESS_FIELDS = ["firstName", "lastName", "address1", "address2", "city", "provinceCode", "zip", "countryCode"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressValues = Record<AddressField, string>;
export type AddressErrors = Partial<Record<AddressField, string>>;

const MAX: Record<AddressField, number> = {
  firstName: 100,
  lastName: 100,
  address1: 200,
  address2: 200,
  city: 100,
  provinceCode: 10,
  zip: 20,
  countryCode: 10, // longer than a code, so "USA" is told the code's shape, not a length
};

/**
 * Countries without postal codes: the only ones where the form accepts an empty ZIP. A short,
 * fixed list (docs/decisions/155-portal-delivery-address.md); any other country needs one.
 */
export const NO_POSTAL_CODE = new Set([
  "AE", "AG", "AO", "AW", "BF", "BI", "BJ", "BO", "BS", "BW", "BZ", "CD", "CF", "CG", "CI", "CK", "CM", "DJ", "DM", "ER", "FJ",
  "GA", "GD", "GH", "GM", "GQ", "GY", "HK", "JM", "KI", "KM", "KN", "KP", "LC", "ML", "MO", "MR", "MW", "NR", "NU", "QA", "RW",
  "SB", "SC", "SL", "SR", "ST", "SY", "TD", "TG", "TK", "TL", "TO", "TT", "TV", "UG", "VU", "YE", "ZW",
]); // prettier-ignore

const empty = (): AddressValues => Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, ""])) as AddressValues;

/** The platform's address as the form's values (empty strings for what it does not have). */
export function addressValues(a: PlatformAddress | null): AddressValues {
  const v = empty();
  if (!a) return v;
  for (const f of ADDRESS_FIELDS) {
    const x = f === "provinceCode" ? (a.provinceCode ?? "") : f === "countryCode" ? (a.countryCode ?? "") : (a[f] ?? "");
    v[f] = x;
  }
  return v;
}

// No control characters in any field (they would reach the platform and the merchant's labels).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The posted form, trimmed and checked: the address to write, or a message per field. Street,
 * city and country are required; the ZIP too, except in a country without postal codes. Names
 * and the second line are optional; the country is a two-letter ISO code.
 */
export function parseDeliveryAddress(
  raw: (name: string) => string | null,
): { ok: true; address: ShippingAddressInput; values: AddressValues } | { ok: false; errors: AddressErrors; values: AddressValues } {
  const values = empty();
  const errors: AddressErrors = {};
  for (const f of ADDRESS_FIELDS) {
    const v = (raw(f) ?? "").trim();
    values[f] = f === "countryCode" || f === "provinceCode" ? v.toUpperCase() : v;
    if (v.length > MAX[f]) errors[f] = `Use at most ${MAX[f]} characters.`;
    else if (CONTROL.test(v)) errors[f] = "Remove the special characters.";
  }
  const need = (f: AddressField, message: string) => {
    if (!errors[f] && values[f] === "") errors[f] = message;
  };
  need("address1", "Enter the street address.");
  need("city", "Enter the city.");
  need("countryCode", "Enter the country's two-letter code, for example US.");
  if (!errors.countryCode && !/^[A-Z]{2}$/.test(values.countryCode)) errors.countryCode = "Enter the country's two-letter code, for example US.";
  if (!errors.countryCode && !NO_POSTAL_CODE.has(values.countryCode)) need("zip", "Enter the ZIP or postal code.");
  if (!errors.provinceCode && values.provinceCode !== "" && !/^[A-Z0-9-]{1,10}$/.test(values.provinceCode)) {
    errors.provinceCode = "Enter the state or province code, for example NY, or leave it empty.";
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors, values };
  const orNull = (v: string) => v || null;
  return {
    ok: true,
    values,
    address: {
      firstName: orNull(values.firstName),
      lastName: orNull(values.lastName),
      address1: values.address1,
      address2: orNull(values.address2),
      city: values.city,
      provinceCode: orNull(values.provinceCode),
      countryCode: values.countryCode,
      zip: values.zip,
    },
  };
}

async function ownedDelivery(ctx: PortalContext, contractGid: string, purpose: "read" | "edit") {
  const port = await platformErrors(() => platformFor(ctx.shopDomain));
  const delivery = assertCustomerOwns(ctx, contractGid, await platformErrors(() => port.getDeliveryAddress(contractGid)), purpose);
  return { port, delivery };
}

/** The address the form starts from: the contract's current one on the platform (hidden: 403; another's: 403). */
export async function deliveryAddressFor(ctx: PortalContext, contractGid: string): Promise<AddressValues> {
  await assertShown(ctx.shopId, "edit_address");
  const { delivery } = await ownedDelivery(ctx, contractGid, "edit");
  return addressValues(delivery.address);
}

/** The fields whose value changed, by name only (docs/decisions/155-portal-delivery-address.md). */
function changedFields(before: AddressValues, after: AddressValues): Changes {
  const fields = ADDRESS_FIELDS.filter((f) => before[f] !== after[f]);
  return fields.length ? { delivery_address: { before: null, after: fields } } : {};
}

/** Writes a checked address (parseDeliveryAddress) as the contract's delivery address. */
export async function updateDeliveryAddress(ctx: PortalContext & { contractGid: string; address: ShippingAddressInput }): Promise<void> {
  await auditOutcome(
    { shopId: ctx.shopId, action: "subscription.update_address", target: { type: "subscription", id: ctx.contractGid } },
    async () => {
      await assertShown(ctx.shopId, "edit_address");
      const { port, delivery } = await ownedDelivery(ctx, ctx.contractGid, "edit");
      try {
        await port.setShippingAddress(ctx.contractGid, ctx.address);
      } catch (err) {
        throw platformApiError(err);
      }
      await refreshMirror(ctx.shopDomain, ctx.contractGid);
      const after = addressValues({ ...ctx.address, company: null, province: null, country: null, phone: null });
      return { before: addressValues(delivery.address), after };
    },
    (r) => changedFields(r.before, r.after),
  );
}
