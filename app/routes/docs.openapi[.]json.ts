// {base_url}/docs/openapi.json: OpenAPI 3.1 generated from the route tables.
import { openApiDocument } from "../surfaces/docs.server";

export const loader = () => Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });
