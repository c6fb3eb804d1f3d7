/** React Query defaults for data that comes through the engine. */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../engine/queries.ts';

function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status !== null && error.status >= 400 && error.status < 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The engine already falls back to its IndexedDB cache, and a 4xx will not change on a retry.
        retry: (failureCount, error) => !isClientError(error) && failureCount < 1,
        // Queries must run offline too: the engine answers them from its cache.
        networkMode: 'always',
        staleTime: 30_000,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
