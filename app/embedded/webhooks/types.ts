// The Webhooks page's data as the browser receives it (JSON), for its components.
import type { SerializeFrom } from "@remix-run/node";
import type { webhooksPageData } from "./page.server";

export type Data = SerializeFrom<typeof webhooksPageData>;
export type EndpointRow = Data["endpoints"][number];
export type DeliveryRow = Data["deliveries"][number];

/** Attempts are seconds apart: the log shows the seconds. */
export const formatInstant = (iso: string) => `${iso.slice(0, 19).replace("T", " ")} UTC`;
export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
