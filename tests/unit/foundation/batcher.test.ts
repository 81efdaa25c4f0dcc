// The group commit every webhook worker's attempts share (app/infra/batcher.ts, docs/decisions/077).
import { Batcher } from "../../../app/infra/batcher";

/** A batch runner that records each batch and answers when `release` is called. */
function controlled<I>(answer: (item: I) => string = (i) => `ok:${String(i)}`) {
  const batches: I[][] = [];
  const waiting: Array<() => void> = [];
  const run = (items: I[]) => {
    batches.push(items);
    return new Promise<string[]>((resolve) => waiting.push(() => resolve(items.map(answer))));
  };
  const releaseAll = async () => {
    while (waiting.length) waiting.shift()!();
    // The answers settle, then the batcher schedules its next batch for the turn after.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  };
  return { batches, run, releaseAll };
}

const turn = () => new Promise((r) => setImmediate(r));

describe("Batcher", () => {
  it("an item added to an idle batcher runs on the next turn, alone", async () => {
    const c = controlled<number>();
    const b = new Batcher(c.run, { maxBatch: 10, maxInFlight: 1 });
    const p = b.add(1);
    await turn();
    expect(c.batches).toEqual([[1]]);
    await c.releaseAll();
    await expect(p).resolves.toBe("ok:1");
  });

  it("items added in one turn share a batch and each caller gets its own answer", async () => {
    const c = controlled<number>();
    const b = new Batcher(c.run, { maxBatch: 10, maxInFlight: 1 });
    const ps = [3, 1, 2].map((i) => b.add(i));
    await turn();
    expect(c.batches).toEqual([[3, 1, 2]]);
    await c.releaseAll();
    expect(await Promise.all(ps)).toEqual(["ok:3", "ok:1", "ok:2"]);
  });

  it("items that arrive while a batch runs go together in the next one; maxBatch splits them", async () => {
    const c = controlled<number>();
    const b = new Batcher(c.run, { maxBatch: 3, maxInFlight: 1 });
    const first = b.add(0);
    await turn();
    const later = [1, 2, 3, 4].map((i) => b.add(i));
    await turn();
    expect(c.batches).toEqual([[0]]); // one in flight at most
    await c.releaseAll();
    expect(c.batches).toEqual([[0], [1, 2, 3]]);
    await c.releaseAll();
    expect(c.batches).toEqual([[0], [1, 2, 3], [4]]);
    await c.releaseAll();
    expect(await first).toBe("ok:0");
    expect(await Promise.all(later)).toEqual(["ok:1", "ok:2", "ok:3", "ok:4"]);
  });

  it("maxInFlight batches run at once", async () => {
    const c = controlled<number>();
    const b = new Batcher(c.run, { maxBatch: 2, maxInFlight: 2 });
    const ps = [1, 2, 3, 4, 5].map((i) => b.add(i));
    await turn();
    expect(c.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await c.releaseAll();
    expect(c.batches.at(-1)).toEqual([5]);
    await c.releaseAll();
    expect(await Promise.all(ps)).toEqual(["ok:1", "ok:2", "ok:3", "ok:4", "ok:5"]);
  });

  it("two items with the same key never share a batch; the later one keeps its place for the next", async () => {
    const c = controlled<{ id: string; n: number }>((i) => `${i.id}#${i.n}`);
    const b = new Batcher(c.run, { maxBatch: 10, maxInFlight: 1, key: (i) => i.id });
    const ps = [
      { id: "a", n: 1 },
      { id: "b", n: 1 },
      { id: "a", n: 2 },
      { id: "c", n: 1 },
    ].map((i) => b.add(i));
    await turn();
    expect(c.batches[0].map((i) => `${i.id}#${i.n}`)).toEqual(["a#1", "b#1", "c#1"]);
    await c.releaseAll();
    expect(c.batches[1].map((i) => `${i.id}#${i.n}`)).toEqual(["a#2"]);
    await c.releaseAll();
    expect(await Promise.all(ps)).toEqual(["a#1", "b#1", "a#2", "c#1"]);
  });

  it("a failed batch is run again item by item, so only the bad item's caller fails", async () => {
    const runs: number[][] = [];
    const b = new Batcher<number, number>(
      async (items) => {
        runs.push(items);
        if (items.includes(13)) throw new Error(`refused ${items.join(",")}`);
        return items.map((i) => i * 2);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const ps = [1, 13, 2].map((i) =>
      b.add(i).then(
        (v) => ({ v }),
        (e: Error) => ({ e: e.message }),
      ),
    );
    expect(await Promise.all(ps)).toEqual([{ v: 2 }, { e: "refused 13" }, { v: 4 }]);
    expect(runs[0]).toEqual([1, 13, 2]);
    expect(runs.slice(1).sort((x, y) => x[0] - y[0])).toEqual([[1], [2], [13]]);
  });

  it("a failure of a one-item batch is that caller's, and the batcher goes on", async () => {
    let fail = true;
    const b = new Batcher<number, number>(
      async (items) => {
        if (fail) throw new Error("database away");
        return items;
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    await expect(b.add(1)).rejects.toThrow("database away");
    fail = false;
    await expect(b.add(2)).resolves.toBe(2);
  });
});
