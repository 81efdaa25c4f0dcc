// Answers typed from the route tables (app/http/route.ts: each entry keeps its method, path and
// response schema): a test's `api(key, "GET", `/subscriptions/${gid}`)` answer has the body type
// of GET /subscriptions/:contract_gid, so a renamed or removed response field fails the type
// check, and a path that names no route of the surface does not compile.
import type { z } from "zod";
import type { ErrorEnvelope } from "../../app/http/envelope.server";

type Segments<S extends string> = S extends `${infer H}/${infer T}` ? [H, ...Segments<T>] : [S];
/** Segment by segment: a `:param` of the pattern takes any one segment; others must be equal. */
type SegmentsMatch<Pattern extends string[], Actual extends string[]> = Pattern extends [infer P extends string, ...infer PRest extends string[]]
  ? Actual extends [infer A extends string, ...infer ARest extends string[]]
    ? P extends `:${string}`
      ? SegmentsMatch<PRest, ARest>
      : A extends P
        ? SegmentsMatch<PRest, ARest>
        : false
    : false
  : Actual extends []
    ? true
    : false;
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

interface RouteShape {
  method: string;
  path: string;
  response: z.ZodType;
}
/** The routes of `Routes` whose pattern matches `method path` segment by segment. */
type ParamMatch<Routes extends RouteShape, M extends string, P extends string> = Routes extends { method: M; path: infer Pattern extends string }
  ? SegmentsMatch<Segments<Pattern>, Segments<WithoutQuery<P>>> extends true
    ? Routes
    : never
  : never;
/**
 * The route of `Routes` that answers `method path` (the path as a test writes it, query included):
 * a literal route before a parameter one, as the kernel matches (`/exports/datasets` before
 * `/exports/:id`).
 */
export type RouteFor<Routes extends RouteShape, M extends string, P extends string> = [LiteralMatch<Routes, M, P>] extends [never]
  ? ParamMatch<Routes, M, P>
  : LiteralMatch<Routes, M, P>;
/** The route whose pattern is exactly the path (both ways: `/exports/${string}` is not `/exports/datasets`). */
type LiteralMatch<Routes extends RouteShape, M extends string, P extends string> = Routes extends { method: M; path: infer Pattern extends string }
  ? [Pattern] extends [WithoutQuery<P>]
    ? [WithoutQuery<P>] extends [Pattern]
      ? Routes
      : never
    : never
  : never;

/**
 * The path, or never (a type error at the call) when it names no route of the surface. A path only
 * known only as `/${string}` (a loop over several routes) is let through, and its answer's body is unknown.
 */
export type RoutePath<Routes extends RouteShape, M extends string, P extends string> = `/${string}` extends P
  ? P
  : [RouteFor<Routes, M, P>] extends [never]
    ? never
    : P;

/** The error envelope's body (/docs/api/errors). */
export type ApiErrorBody = ErrorEnvelope["error"];

export interface TypedAnswer<B> {
  status: number;
  headers: Headers;
  text: string;
  /** The success body as the route's response schema declares it (read it after checking the status). */
  json: B;
  /** The error envelope's `error`, or null on a success. */
  error: ApiErrorBody | null;
}

export type AnswerFor<Routes extends RouteShape, M extends string, P extends string> = `/${string}` extends P
  ? TypedAnswer<unknown>
  : TypedAnswer<z.output<RouteFor<Routes, M, P>["response"]>>;
