// The simulator's store (this folder) holds every change to a shop's data: seeding (control API) and the transitions behind the Admin
// GraphQL mutations. Each transition either refuses with Shopify-like userErrors and changes
// nothing, or applies the change and returns the webhooks it causes. Pure data in, data out:
// no HTTP here, so the rules are unit-testable. A refusal's `code` must be a value of the
// payload's userError code enum in Shopify's schema (the simulator's answers are serialized
// through it: an unknown code is an error there, as it would be a contract break on Shopify).
import type { Outcome, SimEvent } from "../state";

export const ok = <T>(value: T, events: SimEvent[] = []): Outcome<T> => ({ ok: true, value, events });
export const refuse = <T>(message: string, field: string[] | null = null, code: string | null = "INVALID"): Outcome<T> => ({
  ok: false,
  userErrors: [{ field, message, code }],
});
