// The app's one concurrency helper and its one sleep (decision 100). Before, the renewals run, the
// importer's dry run and the importer's batches each carried a hand-written copy.

/** Resolves after `ms` milliseconds (retry back-off, pacing). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * At most `n` calls of the returned function run at once; the rest wait their turn in call order.
 * One limiter can be shared by every caller that draws on the same budget. `n` may be a function,
 * read each time a call starts or ends: a bound that grows lets more of the waiting calls go.
 */
export function limiter(n: number | (() => number)) {
  const bound = typeof n === "function" ? () => Math.max(1, n()) : () => Math.max(1, n);
  let active = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    while (waiting.length && active < bound()) {
      active++;
      waiting.shift()!();
    }
  };
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    // A call that finds others waiting queues behind them, whatever the bound says now.
    if (active >= bound() || waiting.length) await new Promise<void>((r) => waiting.push(r));
    else active++;
    try {
      return await fn();
    } finally {
      active--;
      next();
    }
  };
}

/** Runs `work` over `items`, in order, with at most `limit` at once; rejects with the first failure. */
export async function forEachLimit<T>(items: readonly T[], limit: number | (() => number), work: (item: T) => Promise<void>): Promise<void> {
  const run = limiter(limit);
  await Promise.all(items.map((item) => run(() => work(item))));
}
