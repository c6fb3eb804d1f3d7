/**
 * The driver's closed months (GET /payroll/driver/{id}): what each month paid as the company closed it — loads,
 * tonnage, pay, adjustments — with its lines one tap away. Nothing here changes after close.
 */
import { useState } from 'react';
import { monthLabel } from '../../../contract/money.ts';
import { useGet } from '../../engine/api.ts';
import { formatDate, formatMoney, formatQuantity } from '../../ui/format.ts';
import { Loading, QueryError } from '../../ui/states.tsx';
import { formatRate, plural } from '../../ui/format.ts';
import { REPORTS } from '../../../contract/words.ts';
import { rateNote } from '../../ui/money.ts';

export function ClosedMonths({ userId }: { userId: number }) {
  const query = useGet('GET /payroll/driver/:id', { id: userId });
  const [open, setOpen] = useState<string | null>(null);
  const months = query.data?.data ?? [];

  return (
    <section className="drv-card" aria-labelledby="drv-closed-title">
      <h2 id="drv-closed-title" className="drv-card__title">
        Закрытые месяцы
      </h2>
      {query.isPending ? (
        <Loading tone="driver" text="Загрузка расчётов..." />
      ) : query.isError && !query.data ? (
        <QueryError query={query} tone="driver" />
      ) : months.length === 0 ? (
        <p className="drv-muted">Закрытых месяцев пока нет: расчёт закрывает администратор компании.</p>
      ) : (
        <ul className="drv-wages">
          {months.map((m) => {
            const key = `${m.company_id}-${m.month}`;
            return (
              <li key={key} className="drv-wage">
                <div className="drv-wage__head">
                  <span>
                    <strong>{monthLabel(m.month)}</strong> <span className="drv-muted">· закрыт {formatDate(m.closed_at.slice(0, 10))}</span>
                  </span>
                  <strong className="drv-wage__amount">{formatMoney(m.total_amount)}</strong>
                </div>
                <p className="drv-muted">
                  {plural(m.loads, REPORTS)} · {formatQuantity(m.quantity, 'т')} · за рейсы {formatMoney(m.loads_amount)}
                  {m.adjustments_amount !== 0 ? ` · корректировки ${formatMoney(m.adjustments_amount)}` : ''}
                </p>
                <button type="button" className="drv-btn drv-btn--ghost" aria-expanded={open === key} onClick={() => setOpen(open === key ? null : key)}>
                  {open === key ? 'Скрыть начисления' : 'Показать начисления'}
                </button>
                {open === key && (
                  <ul className="drv-wages" aria-label={`Начисления за ${monthLabel(m.month)}`}>
                    <MonthLines userId={userId} companyId={m.company_id} month={m.month} />
                    {m.adjustments.map((a) => (
                      <li key={`adj-${a.id}`} className="drv-wage">
                        <div className="drv-wage__head">
                          <span className="drv-wage__date">{formatDate(a.date)} · корректировка</span>
                          <strong className="drv-wage__amount">{formatMoney(a.amount)}</strong>
                        </div>
                        <p className="drv-muted">{a.reason}</p>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A closed month's lines, read when the month is opened (as stored at close). */
function MonthLines({ userId, companyId, month }: { userId: number; companyId: number; month: string }) {
  const query = useGet('GET /payroll/driver/:id/:company_id/:month', { id: userId, company_id: companyId, month });
  if (query.isPending) return <Loading tone="driver" text="Загрузка начислений..." />;
  if (query.isError && !query.data) return <QueryError query={query} tone="driver" />;
  return (
    <>
      {(query.data?.data ?? []).map((i) => (
        <li key={i.report_id} className="drv-wage">
          <div className="drv-wage__head">
            <span className="drv-wage__date">
              {formatDate(i.date)} · №{i.task_id}
              {i.ticket_number ? ` · талон ${i.ticket_number}` : ''}
            </span>
            <strong className="drv-wage__amount">{formatMoney(i.amount)}</strong>
          </div>
          <p className="drv-muted">
            {formatQuantity(i.quantity, i.unit)} × {formatRate(i.rate, i.unit)} · {rateNote(i)}
          </p>
        </li>
      ))}
    </>
  );
}
