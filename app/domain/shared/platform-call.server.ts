// Every domain call to the platform goes through here, so a platform failure becomes the same
// API error wherever it happens: a refusal naming a field → invalid_request, one without →
// state_conflict, an app no longer installed → shop_unavailable, an outage → internal_error
// (logged, no detail to the client).
import { ApiError } from "../../infra/errors";
import { log } from "../../infra/log.server";
import { isPlatformError, platformFor, toApiErrorCode, type ShopifyPort } from "../../platform/index.server";

export function platformApiError(err: unknown, unavailableMessage = "The platform did not answer. Retry later."): unknown {
  if (!isPlatformError(err)) return err;
  const code = toApiErrorCode(err);
  switch (code) {
    case "internal_error":
      log.error("platform call failed", { err });
      return new ApiError("internal_error", unavailableMessage);
    case "shop_unavailable":
      return new ApiError("shop_unavailable", "The service is no longer installed on this shop.");
    case "invalid_request":
      return new ApiError("invalid_request", err.field?.length ? `The platform refused ${err.field.join(".")}: ${err.message}` : err.message);
    default:
      return new ApiError(code, err.message);
  }
}

/** Runs `work` (calls on a port already at hand); failures come out as ApiErrors. */
export async function platformErrors<T>(work: () => Promise<T>, unavailableMessage?: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw platformApiError(err, unavailableMessage);
  }
}

/** Runs `fn` with the shop's port; failures come out as ApiErrors. */
export function callPlatform<T>(shopDomain: string, fn: (port: ShopifyPort) => Promise<T>, unavailableMessage?: string): Promise<T> {
  return platformErrors(async () => fn(await platformFor(shopDomain)), unavailableMessage);
}
