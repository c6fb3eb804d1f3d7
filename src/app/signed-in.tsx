/**
 * The shell's parts for a signed-in user (header, sidebar with the staff alerts, the driver's bottom bar), a chunk
 * of their own with React Query (query-layer.tsx): a signed-out /login needs none of them.
 */
import { DriverBar } from './DriverBar.tsx';
import { Header, type HeaderProps } from './Header.tsx';
import { QueryLayer } from './query-layer.tsx';
import { Sidebar, type SidebarProps } from './Sidebar.tsx';
import { useStaffAlerts } from './use-alerts.ts';

export function SignedInHeader(props: HeaderProps) {
  return (
    <QueryLayer>
      <Header {...props} />
    </QueryLayer>
  );
}

/** The sidebar with the counts of unseen staff alerts; the alerts' toasts come from here too. */
export function SignedInSidebar(props: Omit<SidebarProps, 'alertCounts'>) {
  return (
    <QueryLayer>
      <AlertingSidebar {...props} />
    </QueryLayer>
  );
}

function AlertingSidebar(props: Omit<SidebarProps, 'alertCounts'>) {
  const alertCounts = useStaffAlerts(props.role);
  return <Sidebar {...props} alertCounts={alertCounts} />;
}

export function SignedInDriverBar() {
  return (
    <QueryLayer>
      <DriverBar />
    </QueryLayer>
  );
}
