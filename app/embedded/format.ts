// Display helpers shared by the admin pages (client and server: no secrets here). Money and dates
// are said the way the merchant reads them: amounts in the currency's own format for the admin's
// language, dates in the shop's time zone (docs/decisions/154-shop-format.md). Pages take them from
// `useFormat()` (app/embedded/shop-format.tsx), which the app's layout feeds.
import type { Money } from "../domain/shared/money.server";

export interface ShopFormat {
  /** BCP 47 tag of the admin's language (Shopify's `locale`, else the browser's). */
  locale: string;
  /** The shop's IANA time zone (Shopify's shop { ianaTimezone }). */
  timeZone: string;
}

export const DEFAULT_FORMAT: ShopFormat = { locale: "en-US", timeZone: "UTC" };

/** A locale and time zone Intl accepts, else the default's: a bad header never breaks a page. */
export function safeFormat(locale: string | null | undefined, timeZone: string | null | undefined): ShopFormat {
  const ok = (fn: () => unknown) => {
    try {
      fn();
      return true;
    } catch {
      return false;
    }
  };
  return {
    locale: locale && ok(() => new Intl.NumberFormat(locale)) ? Intl.getCanonicalLocales(locale)[0] : DEFAULT_FORMAT.locale,
    timeZone: timeZone && ok(() => new Intl.DateTimeFormat("en-US", { timeZone })) ? timeZone : DEFAULT_FORMAT.timeZone,
  };
}

export function formatterFor(f: ShopFormat) {
  const currencies = new Map<string, Intl.NumberFormat>();
  const currency = (code: string) => {
    let nf = currencies.get(code);
    if (!nf) {
      try {
        nf = new Intl.NumberFormat(f.locale, { style: "currency", currency: code });
      } catch {
        nf = new Intl.NumberFormat(f.locale, { minimumFractionDigits: 2 }); // not an ISO 4217 code
      }
      currencies.set(code, nf);
    }
    return nf;
  };
  const day = new Intl.DateTimeFormat(f.locale, { timeZone: f.timeZone, dateStyle: "medium" });
  const moment = new Intl.DateTimeFormat(f.locale, { timeZone: f.timeZone, dateStyle: "medium", timeStyle: "short" });
  const month = new Intl.DateTimeFormat(f.locale, { timeZone: "UTC", month: "short", year: "2-digit" });
  const formatMoney = (m: Money | null | undefined): string => (m ? currency(m.currency_code).format(Number(m.amount)) : "—");
  return {
    timeZone: f.timeZone,
    formatMoney,
    formatMoneyList: (list: Money[]): string => (list.length ? list.map(formatMoney).join(" + ") : "0"),
    formatDate: (iso: string | null | undefined): string => (iso ? day.format(new Date(iso)) : "—"),
    formatDateTime: (iso: string | null | undefined): string => (iso ? moment.format(new Date(iso)) : "—"),
    /** A YYYY-MM month (UTC, as analytics counts them) as "Jul 26". */
    formatMonth: (ym: string): string => month.format(new Date(`${ym}-01T00:00:00Z`)),
  };
}

export type Formatter = ReturnType<typeof formatterFor>;

export const formatRate = (r: number | null): string => (r === null ? "—" : `${(r * 100).toFixed(1)}%`);
export const statusLabel = (s: string): string => s.charAt(0) + s.slice(1).toLowerCase();
