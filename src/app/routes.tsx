/**
 * Every route of docs/product.md §2. Protected routes come from the NAV table (the sidebar's source too),
 * each behind the guard with its roles. Every screen is its own chunk, so /login loads little; React Query
 * too (query-layer.tsx) wraps every route but /login.
 */
import { Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../ui/states.tsx';
import { lazyNamed } from './lazy.ts';
import { NAV, type NavPath } from './nav.ts';
import { Protected } from './Protected.tsx';

import type { ScreenProps } from './nav.ts';

/** React Query for a subtree; its chunk loads with the first route that needs it. */
export const QueryLayer = lazyNamed(() => import('./query-layer.tsx'), 'QueryLayer');

const LoginScreen = lazyNamed(() => import('../screens/login/LoginScreen.tsx'), 'LoginScreen');
const RegisterScreen = lazyNamed(() => import('../screens/register/RegisterScreen.tsx'), 'RegisterScreen');
const NotFoundScreen = lazyNamed(() => import('../screens/not-found/NotFoundScreen.tsx'), 'NotFoundScreen');

const screens: Record<NavPath, ComponentType<ScreenProps>> = {
  '/profile': lazyNamed(() => import('../screens/profile/ProfileScreen.tsx'), 'ProfileScreen'),
  '/statistics': lazyNamed(() => import('../screens/statistics/StatisticsScreen.tsx'), 'StatisticsScreen'),
  '/announcements': lazyNamed(() => import('../screens/announcements/AnnouncementsScreen.tsx'), 'AnnouncementsScreen'),
  '/available-tasks': lazyNamed(() => import('../screens/available-tasks/AvailableTasksScreen.tsx'), 'AvailableTasksScreen'),
  '/current-tasks': lazyNamed(() => import('../screens/current-tasks/CurrentTasksScreen.tsx'), 'CurrentTasksScreen'),
  '/user-registration-requests': lazyNamed(
    () => import('../screens/registration-requests/RegistrationRequestsScreen.tsx'),
    'RegistrationRequestsScreen',
  ),
  '/carrier-transfers': lazyNamed(() => import('../screens/carrier-transfers/CarrierTransfersScreen.tsx'), 'CarrierTransfersScreen'),
  '/dispatch': lazyNamed(() => import('../screens/dispatch/DispatchScreen.tsx'), 'DispatchScreen'),
  '/payroll': lazyNamed(() => import('../screens/payroll/PayrollScreen.tsx'), 'PayrollScreen'),
  '/manager-salary': lazyNamed(() => import('../screens/manager-salary/ManagerSalaryScreen.tsx'), 'ManagerSalaryScreen'),
  '/tasks/create': lazyNamed(() => import('../screens/task-form/TaskFormScreen.tsx'), 'TaskFormScreen'),
  '/tasks/import': lazyNamed(() => import('../screens/task-import/TaskImportScreen.tsx'), 'TaskImportScreen'),
  '/tasks/manage': lazyNamed(() => import('../screens/tasks-manage/TasksManageScreen.tsx'), 'TasksManageScreen'),
  '/tasks/driverTaskOrder': lazyNamed(() => import('../screens/driver-order/DriverOrderScreen.tsx'), 'DriverOrderScreen'),
  '/tasks/active': lazyNamed(() => import('../screens/tasks-active/TasksActiveScreen.tsx'), 'TasksActiveScreen'),
  '/drivers/manage': lazyNamed(() => import('../screens/drivers-manage/DriversManageScreen.tsx'), 'DriversManageScreen'),
  '/vehicles': lazyNamed(() => import('../screens/vehicles/VehiclesScreen.tsx'), 'VehiclesScreen'),
  '/trip-sheets': lazyNamed(() => import('../screens/trip-sheets/TripSheetsScreen.tsx'), 'TripSheetsScreen'),
  '/documents': lazyNamed(() => import('../screens/documents/DocumentsScreen.tsx'), 'DocumentsScreen'),
  '/counterparties': lazyNamed(() => import('../screens/counterparties/CounterpartiesScreen.tsx'), 'CounterpartiesScreen'),
  '/places': lazyNamed(() => import('../screens/places/PlacesScreen.tsx'), 'PlacesScreen'),
  '/reports': lazyNamed(() => import('../screens/reports/ReportsScreen.tsx'), 'ReportsScreen'),
  '/reports/:id': lazyNamed(() => import('../screens/report-view/ReportViewScreen.tsx'), 'ReportViewScreen'),
  '/companies/manage': lazyNamed(() => import('../screens/companies-manage/CompaniesManageScreen.tsx'), 'CompaniesManageScreen'),
  '/support': lazyNamed(() => import('../screens/support/SupportScreen.tsx'), 'SupportScreen'),
  '/managers/manage': lazyNamed(() => import('../screens/users-manage/UsersManageScreen.tsx'), 'ManagersManageScreen'),
  '/users/manage': lazyNamed(() => import('../screens/users-manage/UsersManageScreen.tsx'), 'AllUsersManageScreen'),
};

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/login" component={LoginScreen} />
        <Route>
          <QueryLayer>
            <Switch>
              <Route path="/register" component={RegisterScreen} />
              <Route path="/">
                <Redirect to="/profile" replace />
              </Route>
              {NAV.map((entry) => {
                const Screen = screens[entry.path];
                return (
                  <Route key={entry.path} path={entry.path}>
                    <Protected roles={entry.roles}>
                      <Screen title={entry.label} />
                    </Protected>
                  </Route>
                );
              })}
              <Route component={NotFoundScreen} />
            </Switch>
          </QueryLayer>
        </Route>
      </Switch>
    </Suspense>
  );
}
