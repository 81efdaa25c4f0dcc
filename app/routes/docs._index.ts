// {base_url}/docs: the readable API reference (the OpenAPI document rendered by Redoc in the page).
import { referenceHtml } from "../surfaces/docs.server";

export const loader = () => new Response(referenceHtml(), { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" } });
