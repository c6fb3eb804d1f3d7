/**
 * Statistics (/statistics). A driver sees their earnings and completed tasks for a period and their closed months; staff see their
 * company's figures (StaffStatistics.tsx).
 */
import { useState } from 'react';
import { useEngineSnapshot } from '../../engine/store.ts';
import { ReportFormHost } from '../../parts/report/ReportFormHost.tsx';
import { CompletedTasks } from './CompletedTasks.tsx';
import { Earnings } from './Earnings.tsx';
import { ClosedMonths } from './ClosedMonths.tsx';
import { StaffStatistics } from './StaffStatistics.tsx';
import { Page } from '../../ui/Page.tsx';
import { PERIOD_LABELS, PERIOD_PRESETS, periodRange, rangeError, type PeriodPreset } from '../../ui/period.ts';
import '../../parts/driver/driver.css';
import { DateInput } from '../../ui/DateInput.tsx';

export function StatisticsScreen({ title = 'Статистика' }: { title?: string }) {
  const user = useEngineSnapshot().auth.user;
  if (user && user.role !== 'driver') {
    return (
      <Page title={title} wide>
        <StaffStatistics />
      </Page>
    );
  }
  return (
    <section className="drv-screen" aria-labelledby="drv-stats-title">
      <h1 id="drv-stats-title" className="drv-screen__title">
        {title}
      </h1>
      {user?.role === 'driver' ? (
        <ReportFormHost>
          <DriverStatistics userId={user.id} />
        </ReportFormHost>
      ) : (
        <p className="drv-state">Загрузка...</p>
      )}
    </section>
  );
}

function DriverStatistics({ userId }: { userId: number }) {
  const [today] = useState(() => new Date());
  const [preset, setPreset] = useState<PeriodPreset>('month');
  const [custom, setCustom] = useState({ start: '', end: '' });
  const range = periodRange(preset, today, custom);
  const error = rangeError(range);

  return (
    <>
      <div className="drv-toolbar" role="group" aria-label="Период">
        <label className="drv-field">
          <span className="drv-field__label">Период</span>
          <select className="drv-input" value={preset} onChange={(event) => setPreset(event.target.value as PeriodPreset)}>
            {PERIOD_PRESETS.map((value) => (
              <option key={value} value={value}>
                {PERIOD_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        {preset === 'custom' ? (
          <>
            <label className="drv-field">
              <span className="drv-field__label">С</span>
              <DateInput className="drv-input" value={custom.start} onValue={(start) => setCustom((current) => ({ ...current, start }))} />
            </label>
            <label className="drv-field">
              <span className="drv-field__label">По</span>
              <DateInput className="drv-input" value={custom.end} onValue={(end) => setCustom((current) => ({ ...current, end }))} />
            </label>
          </>
        ) : null}
      </div>
      {error ? (
        <p className="drv-field__error" role="alert">
          {error}
        </p>
      ) : (
        <>
          <Earnings userId={userId} range={range} />
          <ClosedMonths userId={userId} />
          <CompletedTasks userId={userId} range={range} />
        </>
      )}
    </>
  );
}
