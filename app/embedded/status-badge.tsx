import { Badge } from "@shopify/polaris";
import { statusLabel } from "./format";

const TONE: Record<string, "success" | "attention" | "critical" | "info" | undefined> = {
  ACTIVE: "success",
  PAUSED: "attention",
  FAILED: "critical",
  CANCELLED: undefined,
  EXPIRED: undefined,
  STALE: "info",
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={TONE[status]}>{statusLabel(status)}</Badge>;
}
