import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { RemixServer } from "@remix-run/react";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isbot } from "isbot";

const ABORT_DELAY = 5000;

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  // Embedded-admin pages need Shopify's frame headers; imported lazily so API-only requests
  // never pay for the Shopify app object.
  if (new URL(request.url).pathname.startsWith("/app")) {
    const { addDocumentResponseHeaders } = await import("./shopify.server");
    addDocumentResponseHeaders(request, responseHeaders);
  }
  const callback = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [callback]: () => {
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError: reject,
      onError: (error: unknown) => {
        responseStatusCode = 500;
        console.error(error);
      },
    });
    setTimeout(abort, ABORT_DELAY);
  });
}

// Exposed on the build (build.entry.module) for server.ts: API requests Remix cannot route.
export { handleApiRequest, refuseUnparsedApiRequest } from "./surfaces/dispatch.server";
