// What a simulator handler answers: a JSON body (or text), a status and headers. A leaf.
export interface HttpAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Hold the answer this long (injected slowness). */
  delayMs?: number;
  /** A non-JSON answer (the admin frame page, the App Bridge stand-in), sent as is. */
  text?: string;
}
