/** PLACEHOLDER (owned by the driver-screens engineer, replaced at merge). */
import { Page } from '../../ui/Page.tsx';

export function StatisticsScreen() {
  return (
    <Page title="Статистика">
      <p className="state state-empty">Раздел в разработке</p>
    </Page>
  );
}
