/**
 * React Query for everything past /login, as a chunk of its own: /login renders no query, so a cold start of
 * it loads neither React Query nor the route table. One client for the tab, made when this module first loads;
 * the engine's reconnects and writes invalidate what it holds from then on (before, it holds nothing).
 */
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { onReconnected, onWrites } from '../engine/connect.ts';
import { isStaleAfter, routeTableLoaded } from '../engine/write-invalidation.ts';
import { createQueryClient } from './query-client.ts';
import { wantToasts } from '../ui/toasts.ts';

export const queryClient = createQueryClient();
// Back online (or out of offline mode): what the screens show may be stale cache.
onReconnected(() => void queryClient.invalidateQueries());
// A write in any tab of this browser: every tab refetches what it touched (README.md, "Architecture").
onWrites((writes) => void routeTableLoaded().then(() => queryClient.invalidateQueries({ predicate: (query) => isStaleAfter(query.queryKey, writes) })));
// The screens past this point raise toasts (showToast): the container loads now rather than with the first one.
wantToasts();

export function QueryLayer({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
