// currentAppInstallation.activeSubscriptions: the app's charges Shopify Billing holds as live
// (ACTIVE; a declined, cancelled or expired charge is not listed). The plan is read from here.
import type { AppCharge } from "../port";

export const CURRENT_APP_INSTALLATION = /* GraphQL */ `
  query CurrentAppInstallation {
    currentAppInstallation {
      activeSubscriptions {
        id
        name
        status
        test
        currentPeriodEnd
      }
    }
  }
`;

export interface CurrentAppInstallationResult {
  currentAppInstallation: {
    activeSubscriptions: { id: string; name: string; status: string; test: boolean; currentPeriodEnd: string | null }[];
  };
}

export const mapCurrentAppInstallation = (r: CurrentAppInstallationResult): AppCharge[] =>
  r.currentAppInstallation.activeSubscriptions.map((s) => ({ id: s.id, name: s.name, status: s.status, test: s.test, currentPeriodEnd: s.currentPeriodEnd }));
