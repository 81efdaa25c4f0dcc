// How many Vitest workers run at once; each gets its own database, Redis index and ports.
export const TEST_WORKERS = 3;
export const TEMPLATE_DB = "subscriptions_test_template";
export const workerDb = (id: number) => `subscriptions_test_${id}`;
