// The state file: loaded once at start, rewritten after changes. Writes are coalesced (many
// mutations in one tick → one write) and atomic (temp file + rename), so a crash mid-write
// leaves the previous state intact rather than a truncated file.
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { dirname } from "node:path";
import { emptyState, type SimState } from "./state";

export function loadState(file: string): SimState {
  if (!existsSync(file)) return emptyState();
  const parsed = JSON.parse(readFileSync(file, "utf8")) as SimState;
  if (parsed.version !== 1 || typeof parsed.shops !== "object") throw new Error(`${file} is not a simulator state file (version 1)`);
  return parsed;
}

export function writeStateAtomically(file: string, state: SimState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

export class StateWriter {
  private timer: NodeJS.Timeout | null = null;
  /** How long the last write took: a big state is written less often (see schedule). */
  private lastWriteMs = 0;

  constructor(
    private readonly file: string,
    private readonly current: () => SimState,
    private readonly delayMs = 20,
  ) {}

  /**
   * Marks the state changed; the write happens shortly after, once for a burst of changes. The
   * wait grows with the cost of a write (twenty times the last one), so rewriting a state of
   * thousands of contracts never takes more than a twentieth of the simulator's time.
   */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), Math.max(this.delayMs, Math.min(5_000, this.lastWriteMs * 20)));
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const started = performance.now();
    writeStateAtomically(this.file, this.current());
    this.lastWriteMs = performance.now() - started;
  }
}
