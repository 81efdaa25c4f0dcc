// Surfaces call the platform port directly for live answers (selling_plan_id, the customer
// token exchange); a platform failure becomes the matching API error, never a leaked detail.
import { ApiError } from "../errors";
import { isPlatformError, toApiErrorCode } from "../platform/index.server";

export async function viaPlatform<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isPlatformError(err)) {
      const code = toApiErrorCode(err);
      if (code === "shop_unavailable") throw new ApiError(code, "The service is no longer installed on this shop.");
      if (code === "internal_error") throw err; // logged by the kernel with the request id; no detail to the client
      throw new ApiError(code, err.message);
    }
    throw err;
  }
}
