/** The driver's completed tasks for a period (GET /tasks/driver/completed), each with its reports. */
import { useGet } from '../../engine/api.ts';
import { formatQuantity } from '../../ui/format.ts';
import { ownAssociation, TASK_LIST_STATES } from '../../parts/driver/own-tasks.ts';
import { formatTrips } from '../../ui/format.ts';
import { Empty, Loaded } from '../../ui/states.tsx';
import { TaskSummary } from '../../parts/driver/TaskSummary.tsx';
import { AssociationReports } from '../../parts/report/AssociationReports.tsx';
import type { DateRange } from '../../ui/period.ts';

export function CompletedTasks({ userId, range }: { userId: number; range: DateRange }) {
  const query = useGet('GET /tasks/driver/completed', { date_from: range.start ?? undefined, date_to: range.end ?? undefined });
  const tasks = query.data?.data.items ?? [];

  return (
    <section className="drv-completed" aria-labelledby="drv-completed-title">
      <h2 id="drv-completed-title" className="drv-section-title">
        Выполненные задачи{query.data ? `: ${tasks.length}` : ''}
      </h2>
      <Loaded
        {...TASK_LIST_STATES}
        query={query}
        empty={tasks.length === 0 ? <Empty tone="driver" title="За этот период выполненных задач нет" /> : null}
      >
        {() => (
          <ul className="drv-grid">
            {tasks.map((task) => {
              const association = ownAssociation(task, userId);
              return (
                <li key={association?.id ?? `task-${task.id}`} className="drv-card">
                  <TaskSummary
                    task={task}
                    guide={false}
                    badge={association && association.disputed > 0 ? <span className="drv-badge drv-review drv-review--disputed">Отчёт оспорен</span> : undefined}
                  />
                  {association ? (
                    <>
                      <dl className="drv-facts">
                        <div>
                          <dt>Моё количество</dt>
                          <dd>{formatQuantity(association.quantity, task.unit)}</dd>
                        </div>
                        <div>
                          <dt>Доставлено</dt>
                          <dd>
                            {formatQuantity(association.delivered, task.unit)} · {formatTrips(association.trips)}
                          </dd>
                        </div>
                      </dl>
                      <AssociationReports associationId={association.id} task={task} openAtStart={association.disputed > 0} />
                    </>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </Loaded>
    </section>
  );
}
