import { describe, expect, it } from 'vitest';
import { ALL_ROLES, ROLES, STAFF, type Role } from '../../contract/roles.ts';
import { guard, type GuardAuth } from '../../src/app/guard.ts';
import { NAV, sidebarFor } from '../../src/app/nav.ts';

const signedIn = (role: Role): GuardAuth => ({
  isAuthenticated: true,
  loading: false,
  initialized: true,
  offlineMode: false,
  user: { role },
});
const TO_LOGIN = { redirect: '/login', replace: true };

describe('guard (docs/product.md §4, "Guard")', () => {
  it('1. shows the loading text while loading, or before initialisation, even for a signed-in user', () => {
    expect(guard({ ...signedIn('driver'), loading: true }, ALL_ROLES)).toBe('loading');
    expect(guard({ ...signedIn('driver'), initialized: false }, ALL_ROLES)).toBe('loading');
    // Step 1 comes before step 2: an unauthenticated visitor is not redirected while loading.
    expect(guard({ ...signedIn('driver'), isAuthenticated: false, user: null, loading: true })).toBe('loading');
  });

  it('2. redirects an unauthenticated visitor to /login, replacing the history entry', () => {
    expect(guard({ ...signedIn('driver'), isAuthenticated: false, user: null })).toEqual(TO_LOGIN);
    expect(guard({ ...signedIn('driver'), isAuthenticated: false, user: null }, STAFF)).toEqual(TO_LOGIN);
  });

  it('3. shows the loading text when a role is required and the user is not loaded yet', () => {
    expect(guard({ ...signedIn('driver'), user: null }, STAFF)).toBe('loading');
    // Without a required role there is nothing to wait for.
    expect(guard({ ...signedIn('driver'), user: null })).toBe('show');
  });

  it("4. redirects to /login when the user's role is not among the required roles", () => {
    expect(guard(signedIn('driver'), STAFF)).toEqual(TO_LOGIN);
    expect(guard(signedIn('manager'), ['admin', 'super-admin'])).toEqual(TO_LOGIN);
  });

  it('5. otherwise shows the content', () => {
    expect(guard(signedIn('manager'), STAFF)).toBe('show');
    expect(guard(signedIn('driver'), ['driver'])).toBe('show');
    expect(guard(signedIn('admin'))).toBe('show');
  });

  it('offline mode lets an unauthenticated visitor pass', () => {
    const offline = { ...signedIn('driver'), isAuthenticated: false, offlineMode: true };
    expect(guard(offline)).toBe('show');
    // Passing step 2 does not skip step 4 when a user is loaded.
    expect(guard(offline, STAFF)).toEqual(TO_LOGIN);
  });

  it('offline mode skips the role check when no user is loaded', () => {
    expect(guard({ ...signedIn('driver'), user: null, offlineMode: true }, STAFF)).toBe('show');
  });
});

describe('sidebar table', () => {
  const expected: Record<Role, string[]> = {
    driver: ['/profile', '/available-tasks', '/current-tasks', '/statistics', '/announcements'],
    manager: [
      '/dispatch',
      '/profile',
      '/statistics',
      '/announcements',
      '/tasks/create',
      '/tasks/import',
      '/tasks/manage',
      '/tasks/active',
      '/reports',
      '/tasks/driverTaskOrder',
      '/drivers/manage',
      '/vehicles',
      '/trip-sheets',
      '/documents',
      '/counterparties',
      '/places',
      '/user-registration-requests',
      '/carrier-transfers',
      '/payroll',
      '/manager-salary',
    ],
    admin: [],
    'super-admin': [],
  };
  expected.admin = [...expected.manager, '/companies/manage', '/support'];
  expected['super-admin'] = [...expected.admin, '/managers/manage', '/users/manage'];

  it.each(ROLES)('%s sees exactly its entries', (role) => {
    expect(sidebarFor(role).map((entry) => entry.path)).toEqual(expected[role]);
  });

  it('with no user loaded offers only what every role may open', () => {
    expect(sidebarFor(null).map((entry) => entry.path)).toEqual(['/profile', '/statistics', '/announcements']);
  });

  it('every route of the table lets in exactly the roles of its sidebar entry', () => {
    // The router is built from NAV too, so the guard decision for a route matches the sidebar.
    for (const entry of NAV.filter((candidate) => candidate.inSidebar)) {
      for (const role of ROLES) {
        const listed = sidebarFor(role).some((item) => item.path === entry.path);
        expect(guard(signedIn(role), entry.roles) === 'show', `${role} ${entry.path}`).toBe(listed);
      }
    }
  });

  it('keeps /reports/:id off the sidebar but in the staff routes', () => {
    const report = NAV.find((entry) => entry.path === '/reports/:id');
    expect(report?.inSidebar).toBe(false);
    expect(report?.roles).toEqual(STAFF);
  });
});
