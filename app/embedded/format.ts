// Display helpers shared by the admin pages (client and server: no secrets here).
import type { Money } from "../domain/shared/money.server";

export const formatMoney = (m: Money | null | undefined): string => (m ? `${m.amount} ${m.currency_code}` : "—");
export const formatMoneyList = (list: Money[]): string => (list.length ? list.map(formatMoney).join(" + ") : "0");
export const formatDate = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : "—");
export const formatDateTime = (iso: string | null | undefined): string => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");
export const formatRate = (r: number | null): string => (r === null ? "—" : `${(r * 100).toFixed(1)}%`);
export const statusLabel = (s: string): string => s.charAt(0) + s.slice(1).toLowerCase();
