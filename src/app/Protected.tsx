/** Renders the guard's answer for one route (docs/product.md §4, "Guard"). */
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import type { Role } from '../../contract/roles.ts';
import { useEngineSnapshot } from '../engine/store.ts';
import { Loading } from '../ui/states.tsx';
import { guard } from './guard.ts';

export function Protected({ roles, children }: { roles?: readonly Role[]; children: ReactNode }) {
  const { auth } = useEngineSnapshot();
  const result = guard(auth, roles);
  if (result === 'loading') return <Loading />;
  if (result !== 'show') return <Redirect to={result.redirect} replace={result.replace} />;
  return <>{children}</>;
}
