// Group commit for statements many concurrent jobs of one process make (docs/decisions/077):
// callers add one item each and await their own answer; the items that arrive while earlier
// batches are running go together in the next one. Nothing waits on a timer: an item added to
// an idle batcher runs on the next turn of the event loop (alone, unless others were added in the
// same turn), so batching costs no latency when a process is quiet and grows with the load.
//
// A caller's promise settles only once the statement that carries its item has finished, so
// durability is exactly that of one statement per item. When a batch of several items fails,
// each item is run again on its own, so one bad item fails only its own caller.

export interface BatcherOptions<I> {
  /** Items in one batch at most. */
  maxBatch: number;
  /** Batches running at once at most. */
  maxInFlight: number;
  /** Items with the same key never share a batch (a later one waits for the next). */
  key?: (item: I) => string;
}

interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(err: unknown): void;
}

export class Batcher<I, O> {
  private queue: Pending<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** `run` answers one result per item, in the items' order. */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly opts: BatcherOptions<I>,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.opts.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.opts.maxInFlight && this.queue.length) {
      const batch = this.take();
      this.inFlight++;
      void this.execute(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  /** Up to maxBatch items from the front, skipping (and keeping, in order) those whose key is taken. */
  private take(): Pending<I, O>[] {
    const { key, maxBatch } = this.opts;
    if (!key) return this.queue.splice(0, maxBatch);
    const batch: Pending<I, O>[] = [];
    const rest: Pending<I, O>[] = [];
    const keys = new Set<string>();
    for (const p of this.queue) {
      const k = key(p.item);
      if (batch.length < maxBatch && !keys.has(k)) {
        keys.add(k);
        batch.push(p);
      } else rest.push(p);
    }
    this.queue = rest;
    return batch;
  }

  private async execute(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      // One by one, so a failure is its own item's (or, the database away, each caller's).
      await Promise.all(
        batch.map(async (p) => {
          try {
            p.resolve((await this.run([p.item]))[0]);
          } catch (e) {
            p.reject(e);
          }
        }),
      );
    }
  }
}
