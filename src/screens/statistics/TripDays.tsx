/**
 * /statistics for staff: the drivers' trips per day with their cycle times and waits (GET /tasks/trip-days/;
 * docs/trips.md «Рейсы по дням») for the period picked above — a table at desktop widths, a card per row on phones.
 */
import { useGet } from '../../engine/api.ts';
import { formatDate } from '../../ui/format.ts';
import { Empty, Loaded } from '../../ui/states.tsx';
import { TRIP_DAYS_MAX } from '../../../contract/calls/trips.ts';
import { cycleText, NO_TRIP_DAYS, NO_TRIP_DAYS_WHY, waitText } from '../../parts/trips/trip-days.ts';

const DAY_MS = 86_400_000;

export function TripDays({ companyId, start, end }: { companyId: number; start: string | null; end: string | null }) {
  const bounded = start !== null && end !== null && start <= end && (Date.parse(end) - Date.parse(start)) / DAY_MS < TRIP_DAYS_MAX;
  const query = useGet(bounded ? 'GET /tasks/trip-days/' : null, { start_date: start ?? '', end_date: end ?? '', company_id: companyId });
  return (
    <section className="card" aria-labelledby="trip-days">
      <h2 id="trip-days" className="staff-h2">
        Рейсы по дням
      </h2>
      <p className="staff-rule">Цикл — от прибытия на погрузку до следующего прибытия на погрузку в тот же день: медиана / среднее.</p>
      {!bounded ? (
        <Empty>Выберите период не длиннее года — месяц, неделю или свои даты.</Empty>
      ) : (
        <Loaded query={query} loading="Считаем рейсы...">
          {({ days }) =>
            days.length === 0 ? (
              <Empty>
                {NO_TRIP_DAYS}. {NO_TRIP_DAYS_WHY}
              </Empty>
            ) : (
              <div className="trip-days-wrap">
                <table className="console-table trip-days-table">
                  <thead>
                    <tr>
                      <th scope="col">День</th>
                      <th scope="col">Водитель</th>
                      <th scope="col" className="num">
                        Рейсов
                      </th>
                      <th scope="col">Цикл</th>
                      <th scope="col">Ожидание на погрузке</th>
                      <th scope="col">Ожидание на выгрузке</th>
                    </tr>
                  </thead>
                  <tbody>
                    {days.map((d) => (
                      <tr key={`${d.date}:${d.driver_id}`}>
                        <td data-label="День">{formatDate(d.date)}</td>
                        <td data-label="Водитель">{d.driver_name}</td>
                        <td data-label="Рейсов" className="num">
                          {d.trips}
                        </td>
                        <td data-label="Цикл">{cycleText(d)}</td>
                        <td data-label="Погрузка">{waitText(d.loading_wait_total_min, d.loading_wait_avg_min)}</td>
                        <td data-label="Выгрузка">{waitText(d.unloading_wait_total_min, d.unloading_wait_avg_min)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loaded>
      )}
    </section>
  );
}
