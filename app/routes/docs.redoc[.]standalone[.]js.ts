// {base_url}/docs/redoc.standalone.js: the reference renderer, bundled from npm and served by the
// app so /docs works offline (docs/decisions/046-api-reference-rendering.md).
import { redocBundle } from "../surfaces/docs.server";

export const loader = () =>
  new Response(redocBundle(), { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
