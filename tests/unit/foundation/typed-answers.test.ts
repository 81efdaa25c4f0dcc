// The test client's answers are typed from the route tables (tests/support/typed-answers.ts). These
// are type-level checks: `npm run typecheck` (inside `npm test`) fails if a `@ts-expect-error`
// below stops being an error, or if an expected type changes.
import { expectTypeOf } from "vitest";
import type { adminReadRoutes } from "../../../app/surfaces/admin/reads";
import type { adminWriteRoutes } from "../../../app/surfaces/admin/writes";
import type { AnswerFor, RoutePath } from "../../support/typed-answers";

type Routes = (typeof adminReadRoutes)[number] | (typeof adminWriteRoutes)[number];

describe("typed answers", () => {
  it("type a path with parameters and a query by the route it names", () => {
    expectTypeOf<AnswerFor<Routes, "GET", `/subscriptions/${string}`>["json"]["lines"][number]["quantity"]>().toEqualTypeOf<number>();
    expectTypeOf<AnswerFor<Routes, "GET", "/plans?status=active">["json"]["next_cursor"]>().toEqualTypeOf<string | null>();
    expectTypeOf<AnswerFor<Routes, "POST", `/subscriptions/${string}/pause`>["json"]["previous_status"]>().toBeString();
  });

  it("refuse a path or a method that names no route", () => {
    expectTypeOf<RoutePath<Routes, "GET", "/subscriptionz">>().toBeNever();
    expectTypeOf<RoutePath<Routes, "DELETE", "/plans">>().toBeNever();
    expectTypeOf<RoutePath<Routes, "GET", "/plans">>().toEqualTypeOf<"/plans">();
    // @ts-expect-error: the answer has no such field
    expectTypeOf<AnswerFor<Routes, "GET", "/plans">["json"]["plans"]>();
  });
});
