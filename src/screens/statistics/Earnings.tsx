/**
 * The driver's earnings for a period (GET /wages/driver/{id}): totals and one line per task — a table on
 * wider screens, a list of small cards on a phone, where five columns do not fit in 360 px.
 */
import type { Params } from '../../../worker/api.ts';
import { useApiQuery } from '../../engine/queries.ts';
import { formatDate, formatMoney, formatQuantity } from '../driver-common/format.ts';
import { CacheNote, ErrorState, LoadingState } from '../driver-common/states.tsx';
import { useMediaQuery } from '../../ui/use-media-query.ts';
import type { DateRange } from '../../ui/period.ts';
import { rangeParams } from '../../ui/console/PeriodPicker.tsx';
import { XlsxButton } from '../../ui/console/XlsxButton.tsx';
import { useNeedsServer } from '../../engine/use-online.ts';
import './statistics.css';

interface WageItem {
  task_id: number;
  date: string;
  cargo: string;
  quantity: number | null;
  rate: number | null;
  amount: number | null;
}

interface DriverWages {
  total_quantity: number;
  total_amount: number;
  approved_amount: number;
  items: WageItem[];
}

export function Earnings({ userId, range }: { userId: number; range: DateRange }) {
  const params: Params = rangeParams(range);
  const query = useApiQuery<DriverWages>(`/wages/driver/${userId}`, params);
  const server = useNeedsServer();

  return (
    <section className="drv-card drv-earnings" aria-labelledby="drv-earnings-title">
      <h2 id="drv-earnings-title" className="drv-card__title">
        Заработок
      </h2>
      {query.isPending ? (
        <LoadingState text="Загрузка заработка..." />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <dl className="drv-facts drv-facts--large">
            <div>
              <dt>Начислено</dt>
              <dd>{formatMoney(query.data.data.total_amount)}</dd>
            </div>
            <div>
              <dt>Подтверждено диспетчером</dt>
              <dd>{formatMoney(query.data.data.approved_amount)}</dd>
            </div>
            <div>
              <dt>Ждёт проверки</dt>
              <dd>{formatMoney(Math.round((query.data.data.total_amount - query.data.data.approved_amount) * 100) / 100)}</dd>
            </div>
            <div>
              <dt>Перевезено</dt>
              <dd>{formatQuantity(query.data.data.total_quantity, 'т')}</dd>
            </div>
          </dl>
          {query.data.data.items.length === 0 ? (
            <p className="drv-muted">За этот период начислений нет.</p>
          ) : (
            <WageItems items={query.data.data.items} />
          )}
          <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />
          {query.data.data.items.length > 0 && (
            <XlsxButton path={`/wages/driver/${userId}`} params={params} disabled={server.offline} title={server.reason} />
          )}
        </>
      )}
    </section>
  );
}

const PHONE = '(max-width: 599px)';

function WageItems({ items }: { items: WageItem[] }) {
  const phone = useMediaQuery(PHONE);
  if (phone) {
    return (
      <ul className="drv-wages" aria-label="Начисления по задачам">
        {items.map((item, index) => (
          <li key={`${item.task_id}-${index}`} className="drv-wage">
            <div className="drv-wage__head">
              <span className="drv-wage__date">{formatDate(item.date)}</span>
              <strong className="drv-wage__amount">{formatMoney(item.amount)}</strong>
            </div>
            <p className="drv-wage__cargo">{item.cargo}</p>
            <p className="drv-muted">
              {formatQuantity(item.quantity)} × {formatMoney(item.rate)}
            </p>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="drv-table-wrap">
      <table className="drv-table">
        <thead>
          <tr>
            <th scope="col">Дата</th>
            <th scope="col">Груз</th>
            <th scope="col">Кол-во</th>
            <th scope="col">Ставка</th>
            <th scope="col">Сумма</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr key={`${item.task_id}-${index}`}>
              <td>{formatDate(item.date)}</td>
              <td>{item.cargo}</td>
              <td>{formatQuantity(item.quantity)}</td>
              <td>{formatMoney(item.rate)}</td>
              <td>{formatMoney(item.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
