// The demo shops' catalogue, plans and people: realistic, deterministic (seeded PRNG), so every
// setup produces the same shops and re-running the seed changes nothing.

/** Mulberry32: a tiny deterministic PRNG; the demo must be the same on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      const total = items.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [item, w] of items) if ((r -= w) < 0) return item;
      return items[items.length - 1][0];
    },
  };
}

export type DemoProduct = { key: string; title: string; imageUrl: string; variants: { title: string; price: string }[] };

const img = (slug: string) => `https://cdn.shopify.com/s/files/demo/${slug}.jpg`;

export const PRODUCTS: DemoProduct[] = [
  {
    key: "yirgacheffe",
    title: "Ethiopia Yirgacheffe",
    imageUrl: img("yirgacheffe"),
    variants: [
      { title: "250 g", price: "16.00" },
      { title: "1 kg", price: "48.00" },
    ],
  },
  {
    key: "huila",
    title: "Colombia Huila",
    imageUrl: img("huila"),
    variants: [
      { title: "250 g", price: "15.00" },
      { title: "1 kg", price: "45.00" },
    ],
  },
  {
    key: "espresso",
    title: "House Espresso Blend",
    imageUrl: img("espresso"),
    variants: [
      { title: "250 g", price: "14.00" },
      { title: "1 kg", price: "42.00" },
    ],
  },
  { key: "decaf", title: "Decaf Swiss Water Process", imageUrl: img("decaf"), variants: [{ title: "250 g", price: "15.50" }] },
  { key: "kenya", title: "Kenya Nyeri AA", imageUrl: img("kenya"), variants: [{ title: "250 g", price: "18.00" }] },
  { key: "darjeeling", title: "Darjeeling First Flush", imageUrl: img("darjeeling"), variants: [{ title: "100 g tin", price: "18.00" }] },
  { key: "sencha", title: "Sencha Green Tea", imageUrl: img("sencha"), variants: [{ title: "100 g tin", price: "14.00" }] },
  { key: "rooibos", title: "Rooibos Vanilla", imageUrl: img("rooibos"), variants: [{ title: "100 g tin", price: "12.00" }] },
  { key: "earlgrey", title: "Earl Grey Supreme", imageUrl: img("earlgrey"), variants: [{ title: "100 g tin", price: "13.00" }] },
  { key: "filters", title: "Paper Filters (100)", imageUrl: img("filters"), variants: [{ title: "Size 02", price: "6.00" }] },
  {
    key: "dripper",
    title: "Ceramic Pour-Over Dripper",
    imageUrl: img("dripper"),
    variants: [
      { title: "White", price: "32.00" },
      { title: "Charcoal", price: "32.00" },
    ],
  },
  { key: "oatmilk", title: "Oat Milk Barista Edition (6-pack)", imageUrl: img("oatmilk"), variants: [{ title: "6 x 1 L", price: "21.00" }] },
  { key: "biscotti", title: "Chocolate Hazelnut Biscotti", imageUrl: img("biscotti"), variants: [{ title: "Box of 12", price: "9.00" }] },
  { key: "coldbrew", title: "Cold Brew Concentrate", imageUrl: img("coldbrew"), variants: [{ title: "1 L", price: "19.00" }] },
];

export type Schedule =
  { mode: "ROLLING" } | { mode: "ANCHORED"; anchorDay: number; anchorMonths: number[]; cutoffDays: number; preAnchor: "NEXT" | "ASAP"; shipDay: number | null };

export type DemoPlan = {
  key: string;
  name: string;
  interval: "WEEK" | "MONTH";
  intervalCount: number;
  discountPercent: number;
  giftable: boolean;
  archived?: boolean;
  schedule: Schedule;
  products: string[];
  kind: "regular" | "curated" | "build_a_box" | "mix_match";
  /** Relative share of contracts on this plan. */
  weight: number;
};

export const PLANS: DemoPlan[] = [
  {
    key: "weekly",
    name: "Weekly Coffee",
    interval: "WEEK",
    intervalCount: 1,
    discountPercent: 10,
    giftable: false,
    schedule: { mode: "ROLLING" },
    products: ["yirgacheffe", "huila", "espresso", "decaf", "kenya"],
    kind: "regular",
    weight: 12,
  },
  {
    key: "fortnightly",
    name: "Every Two Weeks Coffee",
    interval: "WEEK",
    intervalCount: 2,
    discountPercent: 10,
    giftable: false,
    schedule: { mode: "ROLLING" },
    products: ["yirgacheffe", "huila", "espresso", "decaf", "kenya", "oatmilk"],
    kind: "regular",
    weight: 16,
  },
  {
    key: "monthly",
    name: "Monthly Coffee",
    interval: "MONTH",
    intervalCount: 1,
    discountPercent: 15,
    giftable: true,
    schedule: { mode: "ROLLING" },
    products: ["yirgacheffe", "huila", "espresso", "decaf", "kenya", "coldbrew"],
    kind: "regular",
    weight: 20,
  },
  {
    key: "teaclub",
    name: "Tea Club — charged on the 15th",
    interval: "MONTH",
    intervalCount: 1,
    discountPercent: 10,
    giftable: true,
    schedule: { mode: "ANCHORED", anchorDay: 15, anchorMonths: [], cutoffDays: 3, preAnchor: "NEXT", shipDay: 17 },
    products: ["darjeeling", "sencha", "rooibos", "earlgrey"],
    kind: "regular",
    weight: 10,
  },
  {
    key: "quarterly",
    name: "Quarterly Tasting Box",
    interval: "MONTH",
    intervalCount: 3,
    discountPercent: 0,
    giftable: true,
    schedule: { mode: "ANCHORED", anchorDay: 1, anchorMonths: [1, 4, 7, 10], cutoffDays: 5, preAnchor: "ASAP", shipDay: null },
    products: ["kenya"],
    kind: "curated",
    weight: 6,
  },
  {
    key: "roasters",
    name: "Roaster's Choice Monthly Box",
    interval: "MONTH",
    intervalCount: 1,
    discountPercent: 5,
    giftable: true,
    schedule: { mode: "ANCHORED", anchorDay: 5, anchorMonths: [], cutoffDays: 4, preAnchor: "NEXT", shipDay: 7 },
    products: ["huila"],
    kind: "curated",
    weight: 8,
  },
  {
    key: "buildabox",
    name: "Build-Your-Own Coffee Box",
    interval: "MONTH",
    intervalCount: 1,
    discountPercent: 10,
    giftable: false,
    schedule: { mode: "ROLLING" },
    products: ["espresso"],
    kind: "build_a_box",
    weight: 8,
  },
  {
    key: "trio",
    name: "Coffee Trio Mix & Match",
    interval: "MONTH",
    intervalCount: 1,
    discountPercent: 12,
    giftable: false,
    schedule: { mode: "ROLLING" },
    products: ["yirgacheffe", "huila", "kenya"],
    kind: "mix_match",
    weight: 7,
  },
  {
    key: "teasampler",
    name: "Tea Sampler Mix & Match",
    interval: "MONTH",
    intervalCount: 2,
    discountPercent: 8,
    giftable: false,
    schedule: { mode: "ROLLING" },
    products: ["darjeeling", "sencha", "rooibos"],
    kind: "mix_match",
    weight: 5,
  },
  {
    key: "gear",
    name: "Brew Gear Refresh — March & September",
    interval: "MONTH",
    intervalCount: 6,
    discountPercent: 0,
    giftable: false,
    schedule: { mode: "ANCHORED", anchorDay: 10, anchorMonths: [3, 9], cutoffDays: 7, preAnchor: "NEXT", shipDay: 12 },
    products: ["filters", "dripper"],
    kind: "regular",
    weight: 4,
  },
  {
    key: "legacy",
    name: "Legacy Fortnightly (archived)",
    interval: "WEEK",
    intervalCount: 2,
    discountPercent: 20,
    giftable: false,
    archived: true,
    schedule: { mode: "ROLLING" },
    products: ["espresso", "biscotti"],
    kind: "regular",
    weight: 4,
  },
];

export const FIRST_NAMES = [
  "Amelia",
  "Noah",
  "Olivia",
  "Liam",
  "Emma",
  "Lucas",
  "Ava",
  "Mateo",
  "Sophia",
  "Ethan",
  "Isabella",
  "Hiroshi",
  "Mia",
  "Oliver",
  "Charlotte",
  "Elijah",
  "Amara",
  "James",
  "Harper",
  "Benjamin",
  "Priya",
  "Leo",
  "Zoe",
  "Samuel",
  "Chloe",
  "Daniel",
  "Freya",
  "Jonas",
  "Ingrid",
  "Rafael",
  "Aisha",
  "Tomás",
  "Nadia",
  "Felix",
  "Clara",
  "Kwame",
  "Elena",
  "Omar",
  "Grace",
  "Yusuf",
];
export const LAST_NAMES = [
  "Anderson",
  "Nakamura",
  "García",
  "Okafor",
  "Müller",
  "Rossi",
  "Dubois",
  "Kowalski",
  "Silva",
  "Johansson",
  "Patel",
  "O'Brien",
  "Nguyen",
  "Schmidt",
  "Fernández",
  "Kim",
  "Haddad",
  "Larsen",
  "Moreau",
  "Costa",
  "Walker",
  "Novak",
  "Hughes",
  "Bianchi",
  "Lindqvist",
  "Mensah",
  "Tanaka",
  "Murphy",
  "Ibrahim",
  "Fischer",
];
export const CITIES = [
  { city: "Portland", province: "OR", country: "US", zip: "97205" },
  { city: "Austin", province: "TX", country: "US", zip: "78701" },
  { city: "Toronto", province: "ON", country: "CA", zip: "M5V 2T6" },
  { city: "Brooklyn", province: "NY", country: "US", zip: "11201" },
  { city: "Denver", province: "CO", country: "US", zip: "80202" },
  { city: "Vancouver", province: "BC", country: "CA", zip: "V6B 1A1" },
  { city: "Chicago", province: "IL", country: "US", zip: "60607" },
];
export const STREETS = ["Maple Avenue", "Harbor Street", "Elm Road", "Cedar Lane", "Queen Street West", "Mission Street", "Oak Boulevard"];

export const CANCEL_REASONS = [
  "Too much coffee piling up",
  "Too expensive right now",
  "Trying a local roaster",
  "Moving house",
  "Didn't love the last box",
  "Other",
];

export const GIFT_MESSAGES = [
  "Happy birthday! Enjoy a year of great coffee.",
  "Congrats on the new place — fuel for unpacking!",
  "Thank you for everything this year.",
  "For the best barista I know.",
  "Merry Christmas! Tea time is on me.",
];

export const NOTIFICATION_EVENTS = [
  { event: "renewal_reminder", category: "reminders", title: "Your next delivery is coming up" },
  { event: "order_confirmation", category: "orders", title: "Order confirmed" },
  { event: "shipping_confirmation", category: "orders", title: "Your box has shipped" },
  { event: "box_menu_published", category: "box", title: "This month's menu is ready — pick your box" },
  { event: "payment_failed", category: "account", title: "We couldn't process your payment" },
  { event: "payment_method_expiring", category: "account", title: "Your card is expiring soon" },
  { event: "winback_offer", category: "winback", title: "We miss you — 20% off your next box" },
] as const;
