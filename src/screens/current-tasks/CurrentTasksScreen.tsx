/**
 * Current tasks (/current-tasks), the driver's home screen: first the reports the dispatcher disputed (also on
 * finished tasks), each a tap from its correction; then his accepted and running tasks in the manager's order,
 * each with quantities, status change and the report form; daily hours below. Nothing moves once drawn: the list
 * shows when both answers are in, the hours card only after it (it would be pushed down otherwise).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { useGet } from '../../engine/api.ts';
import { useEngineSelector } from '../../engine/store.ts';
import type { Snapshot } from '../../engine/types.ts';
import { NEEDS_SERVER, useOnline } from '../../engine/use-online.ts';
import { ownTasksInOrder, TASK_LIST_STATES } from '../../parts/driver/own-tasks.ts';
import { Empty, Loaded, Loading } from '../../ui/states.tsx';
import { DisputedReports } from '../../parts/report/DisputedReports.tsx';
import { useDisputedReports } from '../../parts/report/disputed.ts';
import { refreshAfterReport } from '../../parts/report/ReportForm.tsx';
import { ReportFormHost } from '../../parts/report/ReportFormHost.tsx';
import { AssignedTaskCard } from './AssignedTaskCard.tsx';
import { ShiftAcceptancePanel } from '../../parts/driver/ShiftAcceptance.tsx';
import { shiftTrips, tripSettingsOf } from '../../parts/driver/trip-state.ts';
import type { Task } from '../../../contract/entities.ts';
import { DailyHoursForm } from './DailyHoursForm.tsx';
import { OdometerCard } from './OdometerCard.tsx';
import '../../parts/driver/driver.css';
import './current-tasks.css';

export function CurrentTasksScreen({ title = 'Текущие задачи' }: { title?: string }) {
  return (
    <ReportFormHost>
      <CurrentTasks title={title} />
    </ReportFormHost>
  );
}

const userIdOf = (s: Snapshot) => s.auth.user?.id ?? null;
const companyIdOf = (s: Snapshot) => s.auth.user?.company_id ?? null;

const unsentIds = (s: Snapshot) =>
  s.outbox.items
    .filter((item) => item.state !== 'sent')
    .map((item) => item.id)
    .join(',');

function CurrentTasks({ title }: { title: string }) {
  // What the list reads of the snapshot, picked out: a trip step's push re-renders its own card's panel, not the list.
  const userId = useEngineSelector(userIdOf);
  const online = useOnline();
  const query = useGet('GET /tasks/assigned/');
  const disputed = useDisputedReports();
  const settled = !query.isPending && !disputed.isPending;
  useRefetchWhenReportsArrive();

  const entries = ownTasksInOrder(query.data?.data.items ?? [], userId);

  return (
    <section className="drv-screen" aria-labelledby="drv-current-title">
      <h1 id="drv-current-title" className="drv-screen__title">
        {title}
      </h1>
      {/* The banner above already says the network is gone; this says what still works. */}
      {!online ? (
        <p className="drv-notice">Отчёты ставятся в очередь и уйдут сами, когда связь вернётся. Для остальных действий — {NEEDS_SERVER.toLowerCase()}.</p>
      ) : null}
      {/* The trip sheet of the day: the odometer at the start and the end of the shift. */}
      {settled ? <OdometerCard /> : null}
      {/* Both answers first: a list of disputes arriving later would push the tasks down. */}
      {settled ? <DisputedReports reports={disputed.data?.data ?? []} /> : null}
      {!settled && !query.isPending ? (
        <Loading tone="driver" text={TASK_LIST_STATES.loading} />
      ) : (
        <Loaded
          {...TASK_LIST_STATES}
          query={query}
          empty={
            entries.length === 0 ? (
              <Empty tone="driver" title="Текущих задач нет">
                Возьмите задачу в разделе <Link href="/available-tasks">«Доступные задачи»</Link>.
              </Empty>
            ) : null
          }
        >
          {() => (
            <ul className="drv-grid">
              {entries.map((entry) => (
                <AssignedTaskCard
                  key={entry.association.id}
                  {...entry}
                  online={online}
                />
              ))}
            </ul>
          )}
        </Loaded>
      )}

      {settled ? <ShiftAcceptanceCard tasks={query.data?.data.items ?? []} /> : null}
      {settled ? <DailyHoursForm online={online} /> : null}
    </section>
  );
}

/**
 * The per-shift acceptance (issue 32): shown when the company asks for one signature a shift — said by the
 * company's trip settings (cached, so offline too) or by a task's — and the phone knows finished trips of today.
 */
function ShiftAcceptanceCard({ tasks }: { tasks: readonly Task[] }) {
  const companyId = useEngineSelector(companyIdOf);
  const settings = useGet(companyId ? 'GET /companies/:id/trip-settings' : null, { id: companyId ?? 0 });
  const perShift = settings.data?.data.acceptance_mode === 'per_shift' || tasks.some((t) => tripSettingsOf(t).acceptance_mode === 'per_shift');
  // Picked out of the snapshot: a tap's step that changes nothing here does not re-render the card.
  const trips = useEngineSelector((s) => shiftTrips(s.outbox.items, new Date()));
  if (!perShift || trips.length === 0) return null;
  const byAssociation = (associationId: number) => tasks.find((t) => t.driver_associations.some((a) => a.id === associationId));
  return <ShiftAcceptancePanel trips={trips} associationTask={byAssociation} />;
}

/**
 * A report the outbox delivered completes its task on the server: refetch so the list says so. Delivered
 * means an item this tab saw unsent is now sent or gone — not only one seen in the 'sent' state: the
 * service worker's flush sends and resolves an item in one go, and the throttled snapshot pushes may
 * coalesce 'sent' and 'resolved', so the tab can see an item go straight from waiting to gone.
 */
function useRefetchWhenReportsArrive() {
  const client = useQueryClient();
  const unsent = useEngineSelector(unsentIds);
  const seenUnsent = useRef<Set<string>>(new Set());
  useEffect(() => {
    const now = new Set(unsent ? unsent.split(',') : []);
    const left = [...seenUnsent.current].some((id) => !now.has(id));
    seenUnsent.current = now;
    if (left) void refreshAfterReport(client);
  }, [unsent, client]);
}
