import { Badge } from "@shopify/polaris";
import type { Severity } from "../domain/shop/risks.server";

const TONE = { critical: "critical", high: "warning", medium: "attention", low: undefined } as const;
const LABEL: Record<Severity, string> = { critical: "Critical", high: "High", medium: "Medium", low: "Low" };

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <Badge tone={TONE[severity]}>{LABEL[severity]}</Badge>;
}
