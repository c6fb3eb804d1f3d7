/**
 * /tasks/active: the day's and the still running tasks grouped by driver — planned against
 * reported, the last report and a link to it; the driver's trips of the day with their cycle and waits, and each
 * task's (GET /tasks/trip-days/, docs/trips.md «Рейсы по дням»). Refreshes every 60 s while the tab is visible, and at once when
 * any tab of this browser changes a task or a report.
 */
import { Link } from 'wouter';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet } from '../../engine/api.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { formatDate, formatDateTime, formatQuantity } from '../../ui/format.ts';
import { Page } from '../../ui/Page.tsx';
import { Loading, Empty, QueryError } from '../../ui/states.tsx';
import { StatusBadge } from '../../ui/StatusBadge.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { isoDate } from '../../ui/format.ts';
import { groupByDriver, progressOf, type DriverGroup } from './group.ts';
import { LoadProgress } from '../../ui/LoadProgress.tsx';
import './tasks-active.css';
import { DateInput } from '../../ui/DateInput.tsx';
import type { DriverTripDay } from '../../../contract/calls/trips.ts';
import { findDay, NO_TRIP_DAYS, tripDayLine } from '../../parts/trips/trip-days.ts';

const REFRESH_MS = 60_000;

export function TasksActiveScreen({ title }: ScreenProps) {
  const today = isoDate(new Date());
  const [state, setState] = useUrlState({ date: today });
  const query = useGet('GET /tasks/active/', { date: state.date }, { refetchInterval: REFRESH_MS, refetchIntervalInBackground: false });
  const groups = groupByDriver(query.data?.data.items ?? []);
  const units = new Set((query.data?.data.items ?? []).map((t) => t.unit));
  const unit = units.size === 1 ? [...units][0] : '';
  const tripDays = useTripDays(query.data?.data.items ?? [], state.date);

  let body;
  if (query.isPending) body = <Loading />;
  else if (query.isError) body = <QueryError query={query} />;
  else if (groups.length === 0) {
    body = (
      <Empty>
        {state.date === today ? 'Сегодня активных задач нет.' : `На ${formatDate(state.date)} активных задач нет.`} <Link href="/tasks/create">Создать задачу</Link>
      </Empty>
    );
  } else {
    body = (
      <div className="active-groups">
        {groups.map((group) => (
          <DriverCard key={group.driverId ?? 'none'} group={group} unit={unit ?? ''} date={state.date} days={tripDays} />
        ))}
      </div>
    );
  }

  return (
    <Page
      title={title}
      wide
      aside={
        <span className="active-aside">
          {query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}
          {query.data && !query.data.fromCache && <span className="muted">обновлено {formatDateTime(new Date(query.dataUpdatedAt).toISOString()).slice(11)}</span>}
        </span>
      }
    >
      <div className="active-toolbar">
        <label>
          День
          <DateInput aria-label="День" value={state.date} onValue={(date) => setState({ date: date || today })} />
        </label>
        {state.date !== today && (
          <button type="button" className="button button-small" onClick={() => setState({ date: today })}>
            Сегодня
          </button>
        )}
        <span className="muted">Задачи дня и все ещё не завершённые, у каждого водителя — в сохранённом порядке.</span>
      </div>
      {body}
    </Page>
  );
}

function Progress({ planned, reported, label }: { planned: number; reported: number; label: string }) {
  const share = progressOf(planned, reported);
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)}>
      <span className="progress-fill" style={{ width: `${share * 100}%` }} />
    </div>
  );
}

/**
 * The trips of the day's tasks and of the still running ones (from the earliest task's date), when the tasks are of
 * one company (a super-admin's list of several: none). Null until known.
 */
function useTripDays(tasks: readonly { date: string; company_id: number }[], date: string): DriverTripDay[] | null {
  const companies = new Set(tasks.map((t) => t.company_id));
  const earliest = tasks.reduce((min, t) => (t.date < min ? t.date : min), date);
  // At most a year back (the call's bound); older running tasks show without figures.
  const yearBack = isoDate(new Date(Date.parse(`${date}T00:00:00Z`) - 365 * 86_400_000));
  const start = earliest < yearBack ? yearBack : earliest;
  const company = companies.size === 1 ? [...companies][0]! : null;
  const query = useGet(company === null ? null : 'GET /tasks/trip-days/', { start_date: start, end_date: date, company_id: company ?? undefined });
  return query.data?.data.days ?? null;
}

function DriverCard({ group, unit, date, days }: { group: DriverGroup; unit: string; date: string; days: DriverTripDay[] | null }) {
  const day = days && group.driverId !== null ? findDay(days, date, group.driverId) : undefined;
  return (
    <section className="card active-driver" aria-label={group.name}>
      <header className="active-driver-head">
        <h2>{group.name}</h2>
        <span className="muted">
          задач: {group.lines.length} · {formatQuantity(group.reported, unit)} из {formatQuantity(group.planned, unit)}
          {group.lastReportAt && ` · последний отчёт ${formatDateTime(group.lastReportAt)}`}
        </span>
      </header>
      <Progress planned={group.planned} reported={group.reported} label={`${group.name}: выполнено`} />
      {days && group.driverId !== null && (
        <p className="active-trips muted" aria-label={`${group.name}: рейсы дня`}>
          {day ? tripDayLine(day) : NO_TRIP_DAYS}
        </p>
      )}
      <ul className="active-lines">
        {group.lines.map(({ task, association, planned, reported }) => (
          <li key={`${task.id}:${association?.id ?? 0}`} className="active-line">
            <div className="active-line-main">
              <Link href={`/tasks/create?id=${task.id}`} className="active-cargo">
                {task.cargo}
              </Link>
              <span className="muted">
                №{task.id} · {formatDate(task.date)} · {task.loading_place} → {task.unloading_place}
                {task.customer ? ` · ${task.customer.name}` : ''}
              </span>
            </div>
            <div className="active-line-figures">
              {association ? (
                <LoadProgress compact label={`${task.cargo}: доля водителя`} delivered={reported} of={planned} unit={task.unit} trips={association.trips} />
              ) : null}
              <span className="muted">
                задача: {formatQuantity(task.progress.delivered)} из {formatQuantity(task.progress.plan, task.unit)}
                {task.progress.drivers > 1 ? ` · завершили ${task.progress.drivers_finished} из ${task.progress.drivers}` : ''}
              </span>
              {days && association && <TaskTrips days={days} date={task.date} driverId={association.driver_id} taskId={task.id} />}
            </div>
            <div className="active-line-status">
              {association ? <StatusBadge status={association.status} kind="driver" /> : <StatusBadge status={task.status} />}
              {association?.last_report_id ? (
                <Link href={`/reports/${association.last_report_id}`}>
                  отчёт {association.last_report_at ? formatDateTime(association.last_report_at).slice(11) : ''}
                  {association.report_count > 1 ? ` (всего ${association.report_count})` : ''}
                </Link>
              ) : (
                <span className="muted">отчётов нет</span>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The task's trips by this driver on the task's day, one short line; nothing without a stamped trip. */
function TaskTrips({ days, date, driverId, taskId }: { days: DriverTripDay[]; date: string; driverId: number; taskId: number }) {
  const figures = findDay(days, date, driverId)?.tasks.find((t) => t.task_id === taskId);
  return figures ? <span className="active-task-trips">{tripDayLine(figures)}</span> : null;
}
