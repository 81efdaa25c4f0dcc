// What the admin's home page tells the merchant: plan, subscriptions by status, MRR, open risks
// and the one next step that matters most. Composed from the same functions the other pages
// and the Admin API use (analytics.mrr, risks.openRisks, planAllowsApi).
import { prisma } from "../../db.server";
import { mrr, type MrrView } from "../insights/analytics.server";
import { openRisks, type Risk } from "./risks.server";
import { planAllowsApi } from "./shops.server";
import type { AdminShop } from "./lifecycle.server";

export const HOME_STATUSES = ["ACTIVE", "PAUSED", "FAILED", "CANCELLED", "EXPIRED"] as const;

export interface NextStep {
  title: string;
  detail: string;
  link: { label: string; url: string };
}

export interface HomeView {
  domain: string;
  plan: "FREE" | "PRO";
  apiEnabled: boolean;
  byStatus: Array<{ status: string; count: number }>;
  total: number;
  mrr: MrrView;
  risks: Risk[];
  nextStep: NextStep | null;
}

export async function homeView(shop: AdminShop, now = new Date()): Promise<HomeView> {
  const [groups, mrrNow, risks, keys, endpoints] = await Promise.all([
    prisma.contract.groupBy({ by: ["status"], where: { shopId: shop.id, createdByService: true }, _count: { _all: true } }),
    mrr(shop.id, now),
    openRisks(shop.id, now),
    prisma.apiKey.count({ where: { shopId: shop.id, revokedAt: null, kind: "SECRET" } }),
    prisma.webhookEndpoint.count({ where: { shopId: shop.id } }),
  ]);
  const counts = new Map(groups.map((g) => [g.status as string, g._count._all]));
  const byStatus = HOME_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
  const apiEnabled = planAllowsApi(shop);
  let nextStep: NextStep | null = null;
  if (!apiEnabled) {
    nextStep = {
      title: "Upgrade to Pro",
      detail: "The Developer API, outbound webhooks and exports need the Pro plan.",
      link: { label: "See plans", url: "/app/plan" },
    };
  } else if (keys === 0) {
    nextStep = {
      title: "Mint your first API key",
      detail: "Give your developers a secret key with only the scopes they need.",
      link: { label: "Mint a key", url: "/app/keys" },
    };
  } else if (endpoints === 0) {
    nextStep = {
      title: "Add a webhook endpoint",
      detail: "Be told when a subscription is paused, cancelled or reactivated.",
      link: { label: "Add an endpoint", url: "/app/webhooks" },
    };
  }
  return {
    domain: shop.domain,
    plan: shop.appPlan,
    apiEnabled,
    byStatus,
    total: groups.reduce((s, g) => s + g._count._all, 0),
    mrr: mrrNow,
    risks,
    nextStep,
  };
}
