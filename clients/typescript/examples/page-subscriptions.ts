// Page through every subscription (keyset cursors until next_cursor is null).
import { allPages, createServiceClient, type ClientOptions } from "../index";

export async function pageSubscriptions(o: ClientOptions): Promise<string[]> {
  const client = createServiceClient(o);
  const ids: string[] = [];
  for await (const row of allPages((cursor) => client.GET("/api/admin/v1/subscriptions", { params: { query: { limit: "100", cursor } } }))) {
    ids.push(row.contract_id); // typed from the response schema
  }
  return ids;
}
