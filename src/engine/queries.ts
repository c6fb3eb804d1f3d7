/**
 * React Query over the engine: query functions call `engine.get`, which answers fresh or cached data.
 * A failed call becomes an `ApiError` with the message the user should read.
 */
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { ApiFailure, CachedResult, Params, Result } from '../../worker/api.ts';
import { getEngine } from './engine.ts';

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

/** A cached GET: `data.data` is the payload, `data.fromCache`/`data.storedAt` say where it came from. */
export function useApiQuery<T>(
  path: string | null,
  params?: Params,
  options: Omit<UseQueryOptions<CachedResult<T>, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<CachedResult<T>, ApiError>({
    queryKey: queryKeyOf(path ?? '', params),
    // Comlink's Remote drops method generics; the engine answers what the server sent for this path.
    queryFn: async () => unwrap((await getEngine().get(path as string, params)) as Result<CachedResult<T>>),
    enabled: path !== null && (options.enabled ?? true),
    ...options,
  });
}

/** A mutation through the engine; invalidates the given query paths on success. */
export function useApiMutation<TBody, TData = unknown>(
  method: 'POST' | 'PUT' | 'DELETE',
  pathOf: (body: TBody) => string,
  invalidate: string[] = [],
) {
  const client = useQueryClient();
  return useMutation<TData, ApiError, TBody>({
    mutationFn: async (body) => unwrap((await getEngine().send(method, pathOf(body), body)) as Result<TData>),
    onSuccess: async () => {
      await Promise.all(invalidate.map((path) => client.invalidateQueries({ queryKey: [path] })));
    },
  });
}
