/**
 * /tasks/active: the day's and the still running tasks grouped by driver — planned against
 * reported, the last report and a link to it. Refreshes every 60 s while the tab is visible, and at once when
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

const REFRESH_MS = 60_000;

export function TasksActiveScreen({ title }: ScreenProps) {
  const today = isoDate(new Date());
  const [state, setState] = useUrlState({ date: today });
  const query = useGet('GET /tasks/active/', { date: state.date }, { refetchInterval: REFRESH_MS, refetchIntervalInBackground: false });
  const groups = groupByDriver(query.data?.data.items ?? []);
  const units = new Set((query.data?.data.items ?? []).map((t) => t.unit));
  const unit = units.size === 1 ? [...units][0] : '';

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
          <DriverCard key={group.driverId ?? 'none'} group={group} unit={unit ?? ''} />
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

function DriverCard({ group, unit }: { group: DriverGroup; unit: string }) {
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
      <ul className="active-lines">
        {group.lines.map(({ task, association, planned, reported }) => (
          <li key={`${task.id}:${association?.id ?? 0}`} className="active-line">
            <div className="active-line-main">
              <Link href={`/tasks/create?id=${task.id}`} className="active-cargo">
                {task.cargo}
              </Link>
              <span className="muted">
                №{task.id} · {formatDate(task.date)} · {task.loading_place} → {task.unloading_place}
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
