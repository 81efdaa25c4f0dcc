// Test data for migration imports: a shop's catalogue and plans on the simulator (mirrored in
// the app), a source shop with subscribers, its `migration` export over real HTTP, and waiting
// for an import to end.
import { prisma } from "../../app/db.server";
import { reconcileShop } from "../../app/domain/subscriptions/reconcile.server";
import { importProgress, type ImportProgress } from "../../app/domain/imports/progress.server";
import { createPlanGroup } from "./fixtures";
import { exportsClient, finished } from "./exports";
import { eventuallyProgressing, type Stack } from "./stack";

type SimProduct = { id: string; title: string; variants: { id: string; title: string; price: string }[] };
type SimGroup = { id: string; sellingPlans: { id: string; name: string }[] };

export interface Catalogue {
  products: SimProduct[];
  group: SimGroup;
  /** Every id of the catalogue by a name that is the same in any shop seeded this way. */
  ids: Map<string, string>;
}

/** Two products (two variants each) and one plan group sold on all of them, mirrored in the app. */
export async function seedCatalogue(stack: Stack, domain: string, shopId: string): Promise<Catalogue> {
  const path = stack.control.shop(domain);
  const products = [
    await stack.control.call<SimProduct>("POST", `${path}/products`, {
      title: "House Blend",
      variants: [
        { title: "250 g", price: "12.50" },
        { title: "1 kg", price: "38.00" },
      ],
    }),
    await stack.control.call<SimProduct>("POST", `${path}/products`, {
      title: "Green Tea",
      variants: [
        { title: "Tin", price: "9.00" },
        { title: "Refill", price: "7.25" },
      ],
    }),
  ];
  const group = await stack.control.call<SimGroup>("POST", `${path}/selling-plan-groups`, {
    name: "Coffee club",
    plans: [{ name: "Every month, 10% off", interval: "MONTH", intervalCount: 1 }],
    variantIds: products.flatMap((p) => p.variants.map((v) => v.id)),
  });
  await createPlanGroup(shopId, { groupGid: group.id, name: "Coffee club", sellingPlanGids: [group.sellingPlans[0].id] });
  const ids = new Map<string, string>();
  for (const p of products) {
    ids.set(`product:${p.title}`, p.id);
    for (const v of p.variants) ids.set(`variant:${p.title}/${v.title}`, v.id);
  }
  ids.set("group", group.id);
  ids.set("plan", group.sellingPlans[0].id);
  return { products, group, ids };
}

/** Subscribers like the demo shop's: statuses of every kind, a customer with two contracts, two-line contracts. */
export async function seedSubscribers(stack: Stack, domain: string, cat: Catalogue, count = 6) {
  const path = stack.control.shop(domain);
  const variants = cat.products.flatMap((p) => p.variants);
  const statuses = ["ACTIVE", "PAUSED", "CANCELLED", "EXPIRED", "FAILED", "ACTIVE"];
  const customers: string[] = [];
  // Fewer customers than contracts: some subscribers hold two.
  for (let i = 0; i < Math.max(1, count - 2); i++) {
    const c = await stack.control.call<{ id: string }>("POST", `${path}/customers`, {
      firstName: ["Ada", "Grace", "Émile", "Zoë"][i % 4],
      lastName: `Subscriber${i}`,
      email: `sub${i}.${domain.slice(0, 8)}@example.com`,
      phone: `+1555${String(2000000 + i)}`,
      address: { address1: `${i + 1} Harbor Street`, city: "Toronto", province: "ON", country: "CA", zip: "M5V 2T6" },
    });
    customers.push(c.id);
  }
  const contracts = Array.from({ length: count }, (_, i) => ({
    customerId: customers[i % customers.length],
    status: statuses[i % statuses.length],
    nextBillingDate: new Date(Date.UTC(2030, i % 12, 1 + i, 12)).toISOString(),
    originOrderName: `#${1001 + i}`,
    billingPolicy: { interval: i % 3 === 0 ? "WEEK" : "MONTH", intervalCount: 1 + (i % 2), anchors: [] },
    lines: [
      { variantId: variants[i % variants.length].id, quantity: 1 + (i % 3), sellingPlanId: cat.group.sellingPlans[0].id },
      ...(i % 2 === 0 ? [{ variantId: variants[(i + 1) % variants.length].id, quantity: 1, sellingPlanId: cat.group.sellingPlans[0].id }] : []),
    ],
  }));
  await stack.control.call("POST", `${path}/contracts/bulk`, { contracts, webhooks: false });
  await reconcileShop(domain);
}

/** The shop's `migration` export, rendered by the workers and downloaded over HTTP. */
export async function exportMigration(stack: Stack, shopId: string, format: "csv" | "jsonl" = "csv"): Promise<string> {
  const call = await exportsClient(stack, shopId, ["read:subscriptions", "read:customers"]);
  const created = await call("POST", "/exports", { dataset: "migration", format });
  if (created.status !== 202) throw new Error(`export refused: ${JSON.stringify(created.json)}`);
  const job = await finished(call, created.json.id);
  if (job.status !== "ready") throw new Error(`export ${job.status}: ${JSON.stringify(job.error)}`);
  return (await fetch(job.download_url!)).text();
}

/** Waits for the import's end for as long as it makes progress (its status or items settled). */
export async function importFinished(shopId: string, importId: string, stallMs = 90_000): Promise<ImportProgress> {
  const progress = () => importProgress(shopId, importId);
  return eventuallyProgressing(
    async () => {
      const p = await progress();
      return p && (p.status === "done" || p.status === "failed") ? p : null;
    },
    async () => {
      const p = await progress();
      return [p?.status, p?.done];
    },
    stallMs,
  );
}

/** Waits until the app's mirror holds `n` contracts of the shop (webhooks → mirror worker). */
export async function mirrored(stack: Stack, domain: string, shopId: string, n: number) {
  return stack.settled(domain, async () => (await prisma.contract.count({ where: { shopId } })) === n, 60_000);
}
