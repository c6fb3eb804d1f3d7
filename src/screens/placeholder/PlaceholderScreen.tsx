/** A titled stand-in for staff screens that later issues fill; the route, guard and sidebar entry are real. */
import { Page } from '../../ui/Page.tsx';
import { Empty } from '../../ui/states.tsx';

export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <Page title={title}>
      <Empty>Раздел в разработке</Empty>
    </Page>
  );
}
