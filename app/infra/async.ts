// The app's one concurrency helper and its one sleep (decision 100). Before, the renewals run, the
// importer's dry run and the importer's batches each carried a hand-written copy.

/** Resolves after `ms` milliseconds (retry back-off, pacing). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * At most `n` calls of the returned function run at once; the rest wait their turn in call order.
 * One limiter can be shared by every caller that draws on the same budget.
 */
export function limiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** Runs `work` over `items`, in order, with at most `limit` at once; rejects with the first failure. */
export async function forEachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const run = limiter(Math.max(1, limit));
  await Promise.all(items.map((item) => run(() => work(item))));
}
