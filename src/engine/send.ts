/**
 * A mutation through the engine whose path and body are built separately, so ids that belong in the
 * path never leak into a body that the server validates strictly.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Params, Result } from '../../worker/api.ts';
import { getEngine } from './engine.ts';
import { ApiError, unwrap } from './queries.ts';

export interface SendRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  params?: Params;
}

export async function sendThroughEngine<T>(request: SendRequest): Promise<T> {
  const result = await getEngine().send(request.method, request.path, request.body, request.params);
  return unwrap(result as Result<T>);
}

/**
 * Refetches every query whose path (the first element of its key) starts with one of `prefixes`:
 * per-id paths such as /reports/association/7 are separate keys, so exact keys would miss them.
 */
export function invalidatePaths(client: QueryClient, prefixes: readonly string[]): Promise<void> {
  return client.invalidateQueries({
    predicate: (query) => {
      const path = query.queryKey[0];
      return typeof path === 'string' && prefixes.some((prefix) => path.startsWith(prefix));
    },
  });
}

/** `invalidate` lists path prefixes of the queries to refetch once the call is done. */
export function useEngineSend<V, T = unknown>(build: (vars: V) => SendRequest, invalidate: readonly string[] = []) {
  const client = useQueryClient();
  return useMutation<T, ApiError, V>({
    mutationFn: (vars) => sendThroughEngine<T>(build(vars)),
    onSettled: async () => {
      // Also after a failure: a 409 usually means the list on screen is stale.
      await invalidatePaths(client, invalidate);
    },
  });
}

const NO_NETWORK = 'Нет подключения к сети';

/**
 * What a failed action tells the driver: the server's detail, or `offline` when the connection failed —
 * said as it is: «Сервер недоступен…» when the engine knows the server is down, «Нет связи с
 * сервером…» when the device is online but the request got no answer, «Нет подключения к сети…» without a network.
 */
export function failureMessage(error: unknown, offline = `${NO_NETWORK}. Попробуйте позже.`): string {
  if (error instanceof ApiError) {
    if (!error.network) return error.message;
    if (!offline.startsWith(NO_NETWORK)) return offline;
    if (error.unreachable) return `Сервер недоступен${offline.slice(NO_NETWORK.length)}`;
    if (typeof navigator !== 'undefined' && navigator.onLine) return `Нет связи с сервером${offline.slice(NO_NETWORK.length)}`;
    return offline;
  }
  return error instanceof Error && error.message ? error.message : 'Что-то пошло не так.';
}
