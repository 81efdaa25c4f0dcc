// The billing engine's one clock (docs/decisions/080). Every decision that depends on "now" (what
// is due, which retry is due, which reminder is due) takes it from a Clock argument, defaulting to
// the system clock; `npm run cli -- billing run --at ISO` and the tests pass a fixed one, so time
// moves without sleeping. Outcome webhooks never read it: retries are scheduled from the cycle's
// due date, not from when a webhook happened to arrive.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const fixedClock =
  (at: Date): Clock =>
  () =>
    new Date(at.getTime());
