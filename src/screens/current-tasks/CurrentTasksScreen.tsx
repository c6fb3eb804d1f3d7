/** PLACEHOLDER (owned by the driver-screens engineer, replaced at merge). */
import { Page } from '../../ui/Page.tsx';

export function CurrentTasksScreen() {
  return (
    <Page title="Текущие задачи">
      <p className="state state-empty">Раздел в разработке</p>
    </Page>
  );
}
