/**
 * /statistics for staff: the company's figures for a period (this month by default): completed volume, tasks,
 * drivers' pay, revenue and margin (a loss explained load by load), earnings by driver as a bar chart and a table, and the work done for or handed to
 * other companies through transfers; the drivers' trips per day with their cycles and waits (TripDays.tsx); the unpaid
 * acts with their age (UnpaidInvoices.tsx, whatever the period). The
 * super-admin picks the company. Everything in the URL; xlsx of the
 * breakdown by association.
 */
import { Link } from 'wouter';
import type { CompanyWages } from '../../../contract/driver.ts';
import { downloadOnce, useGet } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { formatDate, formatMoney, formatQuantity, formatRate, plural } from '../../ui/format.ts';
import { REPORTS } from '../../../contract/words.ts';
import { rateNote } from '../../ui/money.ts';
import { Empty, Loaded } from '../../ui/states.tsx';
import { PERIOD_DEFAULTS, PeriodPicker, rangeOf, rangeParams } from '../../ui/console/PeriodPicker.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { XlsxButton } from '../../ui/console/XlsxButton.tsx';
import { BarChart } from './BarChart.tsx';
import { TripDays } from './TripDays.tsx';
import { UnpaidInvoices } from '../../parts/registers/UnpaidInvoices.tsx';
import '../../ui/console/console.css';
import '../../ui/console/figures.css';
import './staff-statistics.css';
import { CompanyPicker, NoCompany, useCompanyScope } from '../../ui/console/company-scope.tsx';

export function StaffStatistics() {
  const [state, setState] = useUrlState({ ...PERIOD_DEFAULTS, company: '' });
  const scope = useCompanyScope(state.company);
  const { companyId } = scope;
  const range = rangeOf(state);
  const params = rangeParams(range);
  // No company yet: not asked (the id is then never read).
  const query = useGet(companyId === null ? null : 'GET /wages/company/:id', { id: companyId ?? 0, ...params });
  const server = useNeedsServer();

  return (
    <>
      <div className="staff-stats-tools">
        <PeriodPicker state={state} onChange={(patch) => setState(patch)} />
        <CompanyPicker scope={scope} onChange={(company) => setState({ company })} />
        {companyId !== null && <XlsxButton download={() => downloadOnce('GET /wages/company/:id', { id: companyId, ...params, format: 'xlsx' })} disabled={server.offline} title={server.reason} />}
      </div>
      {companyId === null ? (
        <NoCompany scope={scope} />
      ) : (
        <Loaded query={query} loading="Считаем показатели...">
          {(w) => (
        <>
          {query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}
          <dl className="salary-facts staff-facts">
            <div>
              <dt>Перевезено</dt>
              <dd>{formatQuantity(w.total_quantity, 'т')}</dd>
            </div>
            <div>
              <dt>Задач с выполненной работой</dt>
              <dd>{w.tasks}</dd>
            </div>
            <div>
              <dt>Начислено водителям</dt>
              <dd>{formatMoney(w.total_amount)}</dd>
            </div>
            <div>
              <dt>Ждёт проверки (не оплачивается)</dt>
              <dd>
                {w.pending.loads === 0 ? 'нет' : `${plural(w.pending.loads, REPORTS)} · ${formatQuantity(w.pending.quantity, 'т')}`}{' '}
                {w.pending.loads > 0 && <Link href="/reports?review=pending">к проверке</Link>}
              </dd>
            </div>
            <div>
              <dt>Выручка по ценам задач</dt>
              <dd>{formatMoney(w.revenue)}</dd>
            </div>
            <div>
              <dt>Маржа</dt>
              <dd className={w.margin < 0 ? 'salary-total money-negative' : 'salary-total'}>{formatMoney(w.margin)}</dd>
            </div>
          </dl>
          <p className="staff-rule">
            Считаются только принятые рейсы; выручка — доставлено × цена задачи; маржа — выручка минус начисленное водителям (с корректировками).
          </p>
          <Losses losses={w.losses} />
          <UnpaidInvoices companyId={companyId} linked />
          {w.drivers.length === 0 ? (
            <Empty>В этом периоде принятых рейсов нет.</Empty>
          ) : (
            <section className="card" aria-labelledby="by-driver">
              <h2 id="by-driver" className="staff-h2">
                Начислено по водителям
              </h2>
              <BarChart
                label="Начислено по водителям"
                bars={w.drivers.map((d) => ({ key: d.driver_id, label: d.driver_name, value: d.total_amount, note: formatQuantity(d.total_quantity, 'т') }))}
                format={formatMoney}
              />
              {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too (axe: scrollable-region-focusable). */}
              <div className="staff-table-wrap" tabIndex={0} role="region" aria-label="Начислено по водителям, таблица">
                <table className="console-table staff-table">
                  <thead>
                    <tr>
                      <th scope="col">Водитель</th>
                      <th scope="col" className="num">
                        Перевезено
                      </th>
                      <th scope="col" className="num">
                        За рейсы
                      </th>
                      <th scope="col" className="num">
                        Корректировки
                      </th>
                      <th scope="col" className="num">
                        Начислено
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {w.drivers.map((d) => (
                      <tr key={d.driver_id}>
                        <td>{d.driver_name}</td>
                        <td className="num">{formatQuantity(d.total_quantity, 'т')}</td>
                        <td className="num">{formatMoney(d.loads_amount)}</td>
                        <td className="num">{d.adjustments_amount === 0 ? '—' : formatMoney(d.adjustments_amount)}</td>
                        <td className="num">{formatMoney(d.total_amount)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
          <TripDays companyId={companyId} start={range.start} end={range.end} />
          {w.for_other_companies.length > 0 && (
            <section className="card" aria-labelledby="for-others">
              <h2 id="for-others" className="staff-h2">
                Выполнено для других компаний
              </h2>
              <ul className="staff-transfers">
                {w.for_other_companies.map((t) => (
                  <li key={t.transfer_id}>
                    Передача №{t.transfer_id} от «{t.company_name}»: {t.cargo}, {formatDate(t.date)} — выполнено {formatQuantity(t.completed_quantity, 'т')} из{' '}
                    {formatQuantity(t.quantity, 'т')}, водителям {formatMoney(t.drivers_amount)}, выручка {formatMoney(t.revenue)}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {w.transferred_out.length > 0 && (
            <section className="card" aria-labelledby="handed-out">
              <h2 id="handed-out" className="staff-h2">
                Передано другим компаниям
              </h2>
              <ul className="staff-transfers">
                {w.transferred_out.map((t) => (
                  <li key={t.transfer_id}>
                    Передача №{t.transfer_id} в «{t.company_name}»: {t.cargo}, {formatDate(t.date)} — выполнено {formatQuantity(t.completed_quantity, 'т')} из{' '}
                    {formatQuantity(t.quantity, 'т')}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
          )}
        </Loaded>
      )}
    </>
  );
}

/** Loads that cost more than they brought: which load, which rate, which price — so a loss is explained, not just red. */
function Losses({ losses: { count, items } }: { losses: CompanyWages['losses'] }) {
  if (count === 0) return null;
  return (
    <section className="card money-losses" aria-labelledby="losses">
      <h2 id="losses" className="staff-h2">
        Убыточные рейсы: {count}
      </h2>
      <p className="staff-rule">Водителю начислено больше, чем выручка по цене задачи (или цена задачи не задана).</p>
      <ul className="staff-transfers">
        {items.map((i) => (
          <li key={i.report_id}>
            <Link href={`/reports/${i.report_id}`}>Рейс {formatDate(i.date)}</Link>, задача №{i.task_id}, {i.driver_name}: {formatQuantity(i.quantity, i.unit)} × ставка{' '}
            {formatRate(i.rate, i.unit)} ({rateNote(i)}) = {formatMoney(i.amount)}; цена задачи {i.task_rate === null ? 'не задана' : formatRate(i.task_rate, i.unit)} → выручка{' '}
            {formatMoney(i.revenue)}, маржа <span className="money-negative">{formatMoney(i.margin)}</span>
          </li>
        ))}
      </ul>
      {count > items.length && <p className="staff-rule">…и ещё {count - items.length}; все — в выгрузке xlsx.</p>}
    </section>
  );
}
