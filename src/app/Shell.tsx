/**
 * The frame around every page but /table: the offline banner always; header and sidebar only when
 * signed in. The sidebar is an off-canvas drawer on phones and a collapsible column on desktops; a driver
 * on a phone gets the bottom bar (DriverBar) instead of the drawer and its hamburger.
 */
import { lazy, Suspense, useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { useEngineSnapshot } from '../engine/store.ts';
import { useMediaQuery } from '../ui/use-media-query.ts';
import { OfflineBanner } from './OfflineBanner.tsx';
import { uiState } from './ui-state.ts';
import { useSessionEndNotice } from './use-session-end.ts';
import { refreshPushSubscription } from './pwa/push.ts';

// The signed-in parts load with React Query when someone is signed in (signed-in.tsx): not on a signed-out /login.
const loadSignedIn = () => import('./signed-in.tsx');
const Header = lazy(() => loadSignedIn().then((m) => ({ default: m.SignedInHeader })));
const Sidebar = lazy(() => loadSignedIn().then((m) => ({ default: m.SignedInSidebar })));
const DriverBar = lazy(() => loadSignedIn().then((m) => ({ default: m.SignedInDriverBar })));

export const DESKTOP_QUERY = '(min-width: 900px)';

export function Shell({ children }: { children: ReactNode }) {
  const { auth } = useEngineSnapshot();
  const { sidebarOpen } = useSnapshot(uiState);
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  useSessionEndNotice(auth);
  const signedIn = auth.isAuthenticated;
  const role = auth.user?.role ?? null;
  // A driver's phone: the bottom bar replaces the hamburger and the drawer (desktop drivers and staff keep the sidebar).
  const driverBar = signedIn && !desktop && role === 'driver';
  // The browser may have renewed this device's push subscription since the server last got it.
  useEffect(() => {
    if (signedIn) void refreshPushSubscription().catch((error: unknown) => console.warn('push refresh failed', error));
  }, [signedIn]);
  const expanded = desktop ? sidebarOpen : drawerOpen;

  function toggle(): void {
    if (desktop) uiState.sidebarOpen = !uiState.sidebarOpen;
    else setDrawerOpen((open) => !open);
  }

  function closeDrawerOnEscape(event: KeyboardEvent): void {
    if (event.key === 'Escape' && drawerOpen) setDrawerOpen(false);
  }

  return (
    <div className={`shell${signedIn ? ' is-signed-in' : ''}${driverBar ? ' has-driver-bar' : ''}`} onKeyDown={closeDrawerOnEscape}>
      <a className="skip-link" href="#main">
        Перейти к содержимому
      </a>
      {/* The banner stays in sight while scrolling, with the header under it. */}
      <div className="shell-top">
        <OfflineBanner />
        {signedIn && (
          // The header's place is kept while its chunk loads: arriving, it would push the page down by its height.
          <Suspense fallback={<div className="header" aria-hidden="true" />}>
            <Header sidebarExpanded={expanded} onToggleSidebar={driverBar ? null : toggle} outboxBadge={!driverBar} />
          </Suspense>
        )}
      </div>
      <div className="shell-body">
        {signedIn && !driverBar && (
          <Suspense fallback={null}>
            <Sidebar role={role} variant={desktop ? 'column' : 'drawer'} open={expanded} onNavigate={() => setDrawerOpen(false)} />
          </Suspense>
        )}
        {signedIn && !desktop && !driverBar && drawerOpen && (
          <div className="drawer-backdrop" aria-hidden="true" onClick={() => setDrawerOpen(false)} />
        )}
        <main id="main" className="main" tabIndex={-1}>
          {children}
        </main>
      </div>
      {driverBar && (
        <Suspense fallback={null}>
          <DriverBar />
        </Suspense>
      )}
    </div>
  );
}
