// The shop's way of saying money and dates, given to every admin page by the app's layout
// (app/routes/app.tsx) so the server's render and the browser's agree (docs/decisions/154-shop-format.md).
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { DEFAULT_FORMAT, formatterFor, type Formatter, type ShopFormat } from "./format";

const FormatContext = createContext<Formatter>(formatterFor(DEFAULT_FORMAT));

export function ShopFormatProvider({ format, children }: { format: ShopFormat; children: ReactNode }) {
  const { locale, timeZone } = format;
  const value = useMemo(() => formatterFor({ locale, timeZone }), [locale, timeZone]);
  return <FormatContext.Provider value={value}>{children}</FormatContext.Provider>;
}

export const useFormat = (): Formatter => useContext(FormatContext);
