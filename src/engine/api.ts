/**
 * The UI's calls to the server, typed from the route table (contract/calls): the key picks the path
 * parameters, the query, the body and the answer, so no caller writes a type argument or a cast. Reads go
 * through the engine's cached GET (`useGet`, `getOnce`); writes through the engine (`useSend`, `sendOnce`),
 * after which the declared areas are refetched here, and in every other tab through the engine's write log
 * (write-invalidation.ts: one rule for both).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { CachedResult, Result } from '../../worker/api.ts';
// Types only: the table's zod schemas stay out of the UI's bundles; a key carries its method and path.
import type { CallAnswer, GetKey, SendKey } from '../../contract/calls/index.ts';
import { fillPath } from '../../contract/call.ts';
import { getEngine } from './engine.ts';
import type { ApiError } from './queries.ts';
import { queryKeyOf, unwrap } from './queries.ts';
import { isStaleAfter, routeTableLoaded } from './write-invalidation.ts';
import { callOf, sendOnce, splitInput, type GetArgs, type SendInput } from './once.ts';

// The calls once, for screens that use the hooks too (the shell imports once.ts itself: no React Query there).
export { downloadOnce, getOnce, sendFormOnce, sendOnce, type FormInput, type GetInput, type SendInput } from './once.ts';

type GetOptions<K extends GetKey> = Omit<UseQueryOptions<CachedResult<CallAnswer<K>>, ApiError>, 'queryKey' | 'queryFn'>;

/**
 * A declared GET as a React Query: `data.data` is the answer, `data.fromCache`/`data.storedAt` say where it came
 * from. `key` null: not asked yet (a screen waiting for a choice).
 */
export function useGet<K extends GetKey>(key: K | null, input?: GetArgs<K>[0], options: GetOptions<K> = {}) {
  const { path, query } = key ? splitInput(key, input) : { path: '', query: undefined };
  return useQuery<CachedResult<CallAnswer<K>>, ApiError>({
    queryKey: queryKeyOf(path, query),
    queryFn: async () => unwrap((await getEngine().get(path, query)) as Result<CachedResult<CallAnswer<K>>>),
    ...options,
    enabled: key !== null && (options.enabled ?? true),
  });
}

/** Refetches the queries a write made stale, by the one rule (write-invalidation.ts). */
export async function invalidateAfter(client: QueryClient, method: string, path: string): Promise<void> {
  await routeTableLoaded();
  await client.invalidateQueries({ predicate: (query) => isStaleAfter(query.queryKey, [{ method, path }]) });
}

/**
 * A declared write as a React Query mutation. Once it settles (also after a failure: a 409 usually means the
 * screen is stale), the areas it invalidates are refetched before the mutation resolves.
 */
export function useSend<K extends SendKey>(key: K) {
  const client = useQueryClient();
  const call = callOf(key);
  return useMutation<CallAnswer<K>, ApiError, SendInput<K>>({
    mutationFn: (input) => sendOnce(key, input),
    onSettled: (_data, _error, input) => invalidateAfter(client, call.method, fillPath(call.path, input.params)),
  });
}
