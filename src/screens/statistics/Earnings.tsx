/**
 * The driver's earnings for a period (GET /wages/driver/{id}): what the period pays (approved loads + adjustments),
 * what still waits for review, and one line per load — a table on wider screens, a list of small cards on a
 * phone, where six columns do not fit in 360 px. The rule is said in one sentence under the totals.
 */
import type { WageItem } from '../../../contract/money.ts';
import { downloadOnce, useGet } from '../../engine/api.ts';
import { formatDate, formatMoney, formatQuantity } from '../../ui/format.ts';
import { Loading, QueryError } from '../../ui/states.tsx';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useMediaQuery } from '../../ui/use-media-query.ts';
import type { DateRange } from '../../ui/period.ts';
import { rangeParams } from '../../ui/console/PeriodPicker.tsx';
import { XlsxButton } from '../../ui/console/XlsxButton.tsx';
import { useNeedsServer } from '../../engine/use-online.ts';
import { formatRate, plural } from '../../ui/format.ts';
import { REPORTS } from '../../../contract/words.ts';
import { PAY_RULE, rateNote } from '../../ui/money.ts';
import './statistics.css';

export function Earnings({ userId, range }: { userId: number; range: DateRange }) {
  const params = rangeParams(range);
  const query = useGet('GET /wages/driver/:id', { id: userId, ...params });
  const server = useNeedsServer();
  const w = query.data?.data;

  return (
    <section className="drv-card drv-earnings" aria-labelledby="drv-earnings-title">
      <h2 id="drv-earnings-title" className="drv-card__title">
        Заработок
      </h2>
      {query.isPending ? (
        <Loading tone="driver" text="Загрузка заработка..." />
      ) : query.isError ? (
        <QueryError query={query} tone="driver" />
      ) : !w ? null : (
        <>
          <dl className="drv-facts drv-facts--large">
            <div>
              <dt>К выплате</dt>
              <dd>{formatMoney(w.total_amount)}</dd>
            </div>
            <div>
              <dt>Перевезено (принято)</dt>
              <dd>{formatQuantity(w.total_quantity, 'т')}</dd>
            </div>
            {w.adjustments_amount !== 0 && (
              <div>
                <dt>Из них корректировки</dt>
                <dd>{formatMoney(w.adjustments_amount)}</dd>
              </div>
            )}
            <div>
              <dt>Ждёт проверки</dt>
              <dd>{w.pending.loads === 0 ? 'нет' : `${plural(w.pending.loads, REPORTS)} · ${formatQuantity(w.pending.quantity, 'т')}`}</dd>
            </div>
          </dl>
          <p className="drv-muted drv-earnings__rule">{PAY_RULE}</p>
          {w.items.length === 0 && w.adjustments.length === 0 ? (
            <p className="drv-muted">За этот период принятых рейсов нет.</p>
          ) : (
            <WageItems items={w.items} />
          )}
          {w.adjustments.length > 0 && (
            <>
              <h3 className="drv-earnings__sub">Корректировки</h3>
              <ul className="drv-wages" aria-label="Корректировки">
                {w.adjustments.map((a) => (
                  <li key={a.id} className="drv-wage">
                    <div className="drv-wage__head">
                      <span className="drv-wage__date">{formatDate(a.date)}</span>
                      <strong className="drv-wage__amount">{formatMoney(a.amount)}</strong>
                    </div>
                    <p className="drv-wage__cargo">{a.reason}</p>
                  </li>
                ))}
              </ul>
            </>
          )}
          <CacheNote className="drv-cache-note" fromCache={query.data.fromCache} storedAt={query.data.storedAt} />
          {w.items.length > 0 && <XlsxButton download={() => downloadOnce('GET /wages/driver/:id', { id: userId, ...params, format: 'xlsx' })} disabled={server.offline} title={server.reason} />}
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
      <ul className="drv-wages" aria-label="Начисления по рейсам">
        {items.map((item) => (
          <li key={item.report_id} className="drv-wage">
            <div className="drv-wage__head">
              <span className="drv-wage__date">
                {formatDate(item.date)} · №{item.task_id}
              </span>
              <strong className="drv-wage__amount">{formatMoney(item.amount)}</strong>
            </div>
            <p className="drv-wage__cargo">
              {item.cargo}
              {item.ticket_number ? ` · талон ${item.ticket_number}` : ''}
            </p>
            <p className="drv-muted">
              {formatQuantity(item.quantity, item.unit)} × {formatRate(item.rate, item.unit)} · {rateNote(item)}
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
            <th scope="col">Груз, талон</th>
            <th scope="col">Кол-во</th>
            <th scope="col">Ставка</th>
            <th scope="col">Откуда ставка</th>
            <th scope="col">Сумма</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.report_id}>
              <td>{formatDate(item.date)}</td>
              <td>
                {item.cargo}
                {item.ticket_number ? <span className="drv-muted"> · талон {item.ticket_number}</span> : null}
              </td>
              <td>{formatQuantity(item.quantity, item.unit)}</td>
              <td>{formatRate(item.rate, item.unit)}</td>
              <td>{rateNote(item)}</td>
              <td>{formatMoney(item.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
