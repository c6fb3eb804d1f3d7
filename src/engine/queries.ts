/**
 * What the typed calls (api.ts) share: a failed call becomes an `ApiError` with the message the user should read,
 * and a query's key is its path and parameters.
 */
import type { ApiFailure, Params, Result } from '../../worker/api.ts';

export class ApiError extends Error {
  readonly status: number | null;
  readonly network: boolean;
  /** The engine knows the server is down or busy (not the device's network). */
  readonly unreachable: boolean;
  constructor(failure: ApiFailure) {
    super(failure.message);
    this.status = failure.status;
    this.network = failure.network;
    this.unreachable = failure.unreachable === true;
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new ApiError(result);
  return result.data;
}

export function queryKeyOf(path: string, params?: Params): readonly unknown[] {
  return params ? [path, params] : [path];
}
