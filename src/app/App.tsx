/** The app: /table and the customer's page /c/{token} on their own, everything else inside the shell; the update prompt everywhere. */
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { Loading } from '../ui/states.tsx';
import { lazyNamed } from './lazy.ts';
import { UpdatePrompt } from './pwa/UpdatePrompt.tsx';
import { AppRoutes, QueryLayer } from './routes.tsx';
import { Shell } from './Shell.tsx';
import { useStartup } from './use-startup.ts';

const TableScreen = lazyNamed(() => import('../screens/table/TableScreen.tsx'), 'TableScreen');
const CustomerScreen = lazyNamed(() => import('../screens/customer/CustomerScreen.tsx'), 'CustomerScreen');

export function App() {
  useStartup();
  return (
    <>
      <Switch>
        <Route path="/table">
          <Suspense fallback={<Loading />}>
            <QueryLayer>
              <TableScreen />
            </QueryLayer>
          </Suspense>
        </Route>
        <Route path="/c/:token">
          <Suspense fallback={<Loading />}>
            <QueryLayer>
              <CustomerScreen />
            </QueryLayer>
          </Suspense>
        </Route>
        <Route>
          <Shell>
            <AppRoutes />
          </Shell>
        </Route>
      </Switch>
      <UpdatePrompt />
    </>
  );
}
