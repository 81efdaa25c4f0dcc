// {base_url}/docs/api/errors: one anchored section per error code (every doc_url resolves).
import { errorsHtml } from "../surfaces/docs.server";

export const loader = () => new Response(errorsHtml(), { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" } });
