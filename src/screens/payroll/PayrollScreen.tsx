/**
 * /payroll «Расчёт с водителями» (staff; closing: admins; reopening: the super-admin). One company's month: each
 * driver's approved loads, pay, adjustments and what is to be paid, the loads still waiting for review apart (they
 * are not paid: a warning and a link to the review queue), the month's history. An admin closes the month — its
 * figures are stored and can no longer move — and downloads the sheet («Ведомость», xlsx); a correction after close
 * is an adjustment in an open month. The month, company and driver are in the URL.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import { createColumnHelper } from '@tanstack/react-table';
import { confirmedOf, monthLabel, monthOf, monthRange, nextMonth, type PayrollClose, type PayrollDriver, type PayrollMonth } from '../../../contract/money.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { downloadOnce, getOnce, invalidateAfter, useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDate, formatDateTime, formatMoney, formatQuantity, formatRate, formatTrips, plural } from '../../ui/format.ts';
import { pluralForm, REPORTS, WAIT } from '../../../contract/words.ts';
import { Page } from '../../ui/Page.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { DataTable } from '../../ui/console/DataTable.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { XlsxButton } from '../../ui/console/XlsxButton.tsx';
import { inMonthLabel, rateNote } from '../../ui/money.ts';
import { AdjustmentDialog, ReopenDialog } from './PayrollDialogs.tsx';
import '../../ui/console/console.css';
import '../../ui/console/figures.css';
import './payroll.css';
import { CompanyPicker, NoCompany, useCompanyScope } from '../../ui/console/company-scope.tsx';

const column = createColumnHelper<PayrollDriver>();

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

const thisMonth = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};

export function PayrollScreen({ title }: ScreenProps) {
  const [state, setState] = useUrlState({ month: thisMonth(), company: '', driver: '' });
  const scope = useCompanyScope(state.company);
  const { user, superAdmin, companyId } = scope;
  const admin = user?.role === 'admin' || superAdmin;
  const query = useGet(
    companyId === null ? null : 'GET /payroll/',
    { month: state.month, ...(superAdmin && companyId !== null ? { company_id: companyId } : {}) },
    // While a close runs (another admin's, another tab's) the month is read again until it ends; the change feed
    // also says so at once.
    { refetchInterval: (q) => (q.state.data?.data.closing ? CLOSING_REFETCH_MS : false) },
  );
  const server = useNeedsServer();
  const current = thisMonth();

  return (
    <Page title={title} wide>
      <p className="account-note">
        Оплачиваются рейсы, принятые диспетчером. Ставка — ставка водителя в задаче, а если её нет — по шкале компании: весь объём месяца
        оплачивается по ставке полосы, до которой он дорос. Закрытый месяц больше не меняется; исправления после закрытия — корректировки в
        открытом месяце.
      </p>
      <div className="payroll-tools">
        <div className="payroll-month" role="group" aria-label="Месяц">
          <button type="button" className="button button-small" onClick={() => setState({ month: previousMonth(state.month), driver: '' })} aria-label="Предыдущий месяц">
            ←
          </button>
          <strong className="payroll-month__label" aria-live="polite">
            {capitalized(monthLabel(state.month))}
          </strong>
          <button
            type="button"
            className="button button-small"
            disabled={state.month >= current}
            onClick={() => setState({ month: nextMonth(state.month), driver: '' })}
            aria-label="Следующий месяц"
          >
            →
          </button>
        </div>
        <CompanyPicker scope={scope} onChange={(company) => setState({ company, driver: '' })} />
      </div>
      {companyId === null ? (
        <NoCompany scope={scope} />
      ) : (
        <Loaded query={query} loading="Считаем расчёт...">
          {(m) => (
        <MonthView
          m={m}
          admin={admin}
          superAdmin={superAdmin}
          offline={server.offline}
          reason={server.reason}
          canClose={m.month <= current}
          driver={state.driver ? Number(state.driver) : null}
          onDriver={(id) => setState({ driver: id === null ? '' : String(id) })}
          fromCache={query.data?.fromCache ?? false}
          storedAt={query.data?.storedAt ?? null}
        />
          )}
        </Loaded>
      )}
    </Page>
  );
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const CLOSING_REFETCH_MS = 2_000;

/**
 * Follows a close started by POST /payroll/close (a job, server/payroll/close-jobs.ts) until it ends: its state
 * read after 200 ms, then less and less often (a 200-truck month takes well under a second, a larger fleet's seconds).
 */
async function followClose(id: number): Promise<PayrollClose> {
  for (let wait = 200; ; wait = Math.min(Math.round(wait * 1.5), 2_000)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    const { data, fromCache } = await getOnce('GET /payroll/closes/:id', { id });
    if (!fromCache && data.status !== 'running') return data;
  }
}

/** What an early close leaves for later: the days still ahead in the month and the tasks dated on them. */
function aheadText(ahead: PayrollMonth['ahead'], next: string): string {
  if (ahead === null) return '';
  const days = ahead.from === ahead.to ? formatDate(ahead.from) : `${formatDate(ahead.from)}–${formatDate(ahead.to)}`;
  const tasks =
    ahead.count === 0
      ? 'задач на эти дни нет'
      : `на эти дни ${plural(ahead.count, ['задача', 'задачи', 'задач'])}: ${ahead.tasks.slice(0, 10).map((t) => `№${t.id} (${formatDate(t.date)})`).join(', ')}${ahead.count > 10 ? ' и другие' : ''}`;
  return ` Месяц ещё идёт: впереди ${days}, ${tasks}. Рейсы, записанные после закрытия, будут оплачены ${next} с пометкой «поздний рейс».`;
}

/** One driver's loads of the month, read when the driver's row is opened (a closed month: as stored at close). */
function DriverLoads({ m, driver, onClose }: { m: PayrollMonth; driver: PayrollDriver; onClose: () => void }) {
  const query = useGet('GET /payroll/items', { month: m.month, driver_id: driver.driver_id, company_id: m.company_id });
  return (
    <section className="card" aria-labelledby="payroll-loads">
      <h2 id="payroll-loads" className="staff-h2">
        Рейсы: {driver.driver_name}{' '}
        <button type="button" className="button button-small button-quiet" onClick={onClose}>
          Скрыть
        </button>
      </h2>
      <Loaded query={query} loading="Загружаем рейсы...">
        {({ items }) => (
          <>
            <ul className="payroll-loads">
              {items.slice(0, 300).map((i) => (
                <li key={i.report_id}>
                  <span className="payroll-loads__date">{formatDate(i.date)}</span>
                  <span className="payroll-loads__what">
                    <Link href={`/reports/${i.report_id}`}>№{i.task_id}</Link> {i.cargo}
                    {i.ticket_number ? `, талон ${i.ticket_number}` : ''}
                  </span>
                  <span className="payroll-loads__sum">
                    {formatQuantity(i.quantity, i.unit)} × {formatRate(i.rate, i.unit)} = <strong>{formatMoney(i.amount)}</strong>
                    <span className="muted"> ({rateNote(i)})</span>
                  </span>
                </li>
              ))}
            </ul>
            {items.length > 300 && <p className="muted">Показаны первые 300 из {items.length}; все — в ведомости.</p>}
          </>
        )}
      </Loaded>
    </section>
  );
}

interface MonthViewProps {
  m: PayrollMonth;
  admin: boolean;
  superAdmin: boolean;
  offline: boolean;
  reason: string | undefined;
  canClose: boolean;
  driver: number | null;
  onDriver: (id: number | null) => void;
  fromCache: boolean;
  storedAt: number | null;
}

function MonthView({ m, admin, superAdmin, offline, reason, canClose, driver, onDriver, fromCache, storedAt }: MonthViewProps) {
  const [confirmElement, ask] = useConfirm();
  const [dialog, setDialog] = useState<'adjust' | 'reopen' | null>(null);
  const close = useSend('POST /payroll/close');
  const client = useQueryClient();
  // This tab's close being followed; `m.closing`: any close of the month under way (another tab's, another admin's).
  const [following, setFollowing] = useState(false);
  const closing = following || m.closing !== null;
  const closed = m.status === 'closed';
  const label = monthLabel(m.month);

  async function closeMonth(): Promise<void> {
    const next = inMonthLabel(nextMonth(m.month));
    const pending =
      m.pending.loads > 0
        ? ` ${plural(m.pending.loads, REPORTS)} на ${formatQuantity(m.pending.quantity, 'т')} ещё ${pluralForm(m.pending.loads, WAIT)} проверки: в этот расчёт входит только принятое, принятое после закрытия будет оплачено в следующем открытом месяце.`
        : '';
    const yes = await ask({
      title: `Закрыть ${label}?`,
      message: `К выплате ${formatMoney(m.total_amount)}, водителей: ${m.drivers.length}. После закрытия рейсы, ставки и шкала этого месяца больше не меняются.${pending}${aheadText(m.ahead, next)}`,
      confirmLabel: 'Закрыть месяц',
      danger: m.pending.loads > 0 || m.ahead !== null,
    });
    if (!yes) return;
    setFollowing(true);
    try {
      // The figures confirmed: if the month moved meanwhile, the close fails and says what changed.
      const started = await close.mutateAsync({ body: { company_id: m.company_id, month: m.month, confirmed: confirmedOf(m) } });
      const ended = await followClose(started.id);
      if (ended.status === 'done') showToast('success', `${capitalized(label)} закрыт`);
      else showToast('error', ended.error ?? `${capitalized(label)} не закрыт`);
    } catch (error) {
      showToast('error', failureMessage(error));
    } finally {
      // The month as the close left it (the change feed says so too; this tab does not wait for it).
      await invalidateAfter(client, 'POST', '/payroll/close');
      setFollowing(false);
    }
  }

  const columns = [
    column.accessor('driver_name', { header: 'Водитель', cell: (c) => <strong>{c.getValue()}</strong> }),
    column.accessor('trips', { header: 'Рейсов', meta: { align: 'right' } }),
    column.accessor('quantity', { header: 'Доставлено', meta: { align: 'right' }, cell: (c) => formatQuantity(c.getValue(), 'т') }),
    column.accessor('loads_amount', { header: 'За рейсы', meta: { align: 'right' }, cell: (c) => formatMoney(c.getValue()) }),
    column.accessor('adjustments_amount', { header: 'Корректировки', meta: { align: 'right' }, cell: (c) => (c.getValue() === 0 ? '—' : formatMoney(c.getValue())) }),
    column.accessor('total_amount', { header: 'К выплате', meta: { align: 'right' }, cell: (c) => <strong>{formatMoney(c.getValue())}</strong> }),
  ];
  const late = m.pending.items.filter((i) => i.late);
  const lateCount = late.length;
  const lateFrom = late.reduce<string | null>((first, i) => (first === null || i.date < first ? i.date : first), null);
  const chosen = m.drivers.find((d) => d.driver_id === driver);

  return (
    <>
      {confirmElement}
      <div className={closed ? 'payroll-status payroll-status--closed' : closing ? 'payroll-status payroll-status--closing' : 'payroll-status'} role="status" aria-busy={closing}>
        {closed
          ? `Месяц закрыт ${m.closed_at ? formatDateTime(m.closed_at) : ''}${m.closed_by_name ? ` — ${m.closed_by_name}` : ''}. Цифры сохранены и не меняются.`
          : closing
            ? `Месяц закрывается: сохраняем рейсы и суммы${m.closing ? ` (начато ${formatDateTime(m.closing.started_at)}${m.closing.user_name ? ` — ${m.closing.user_name}` : ''})` : ''}…`
            : 'Месяц открыт: цифры меняются, пока рейсы принимают и правят.'}
      </div>
      {storedAt !== null && <CacheNote fromCache={fromCache} storedAt={storedAt} />}
      <dl className="salary-facts">
        <div>
          <dt>Рейсов принято</dt>
          <dd>{m.trips}</dd>
        </div>
        <div>
          <dt>Доставлено</dt>
          <dd>{formatQuantity(m.total_quantity, 'т')}</dd>
        </div>
        <div>
          <dt>За рейсы</dt>
          <dd>{formatMoney(m.loads_amount)}</dd>
        </div>
        <div>
          <dt>Корректировки</dt>
          <dd>{formatMoney(m.adjustments_amount)}</dd>
        </div>
        <div>
          <dt>К выплате</dt>
          <dd className="salary-total">{formatMoney(m.total_amount)}</dd>
        </div>
      </dl>
      {m.pending.loads > 0 && (
        <div className="payroll-warning" role="note">
          <strong>
            {plural(m.pending.loads, REPORTS)} на {formatQuantity(m.pending.quantity, 'т')} {pluralForm(m.pending.loads, WAIT)} проверки
          </strong>{' '}
          — оплата только после приёма.{' '}
          {closed && 'Месяц закрыт: принятое теперь будет оплачено в следующем открытом месяце с пометкой «поздний рейс». '}
          {lateCount > 0 && `Отчётов о поздних рейсах закрытых месяцев среди них: ${lateCount} — принятое будет оплачено в этом месяце. `}
          <Link href={`/reports?review=pending&period=custom&from=${lateFrom ?? monthRange(m.month).start}&to=${monthRange(m.month).end}`}>Перейти к проверке</Link>
        </div>
      )}
      <div className="payroll-actions">
        {admin && !closed && canClose && (
          <button type="button" className="button button-primary" disabled={offline || closing} title={reason} onClick={() => void closeMonth()}>
            {closing ? 'Закрываем…' : 'Закрыть месяц'}
          </button>
        )}
        {superAdmin && closed && (
          <button type="button" className="button" disabled={offline} title={reason} onClick={() => setDialog('reopen')}>
            Открыть заново
          </button>
        )}
        {admin && (
          <button type="button" className="button" disabled={offline} title={reason} onClick={() => setDialog('adjust')}>
            Добавить корректировку
          </button>
        )}
        <XlsxButton download={() => downloadOnce('GET /payroll/:company_id/:month/sheet', { company_id: m.company_id, month: m.month })} disabled={offline} title={reason} label="Скачать ведомость (xlsx)" />
      </div>
      <section className="card" aria-labelledby="payroll-drivers">
        <h2 id="payroll-drivers" className="staff-h2">
          Водители
        </h2>
        <DataTable
          label="Водители за месяц"
          columns={columns}
          data={m.drivers}
          getRowId={(d) => String(d.driver_id)}
          onOpen={(d) => onDriver(d.driver_id === driver ? null : d.driver_id)}
          rowClassName={(d) => (d.driver_id === driver ? 'row-selected' : undefined)}
          empty={<Empty>В этом месяце принятых рейсов нет.</Empty>}
          card={(d) => (
            <div className="payroll-card">
              <strong>{d.driver_name}</strong>
              <span>
                {formatTrips(d.trips)} · {formatQuantity(d.quantity, 'т')}
              </span>
              <span>
                К выплате <strong>{formatMoney(d.total_amount)}</strong>
                {d.adjustments_amount !== 0 && ` (корр. ${formatMoney(d.adjustments_amount)})`}
              </span>
            </div>
          )}
        />
      </section>
      {chosen ? (
        <DriverLoads m={m} driver={chosen} onClose={() => onDriver(null)} />
      ) : (
        m.loads > 0 && <p className="muted">Рейсы водителя — по нажатию на его строку; все рейсы месяца — в ведомости.</p>
      )}
      {(m.adjustments.length > 0 || m.later_adjustments.length > 0) && (
        <section className="card" aria-labelledby="payroll-adjustments">
          <h2 id="payroll-adjustments" className="staff-h2">
            Корректировки
          </h2>
          <ul className="payroll-loads">
            {m.adjustments.map((a) => (
              <li key={a.id}>
                <span className="payroll-loads__date">{formatDate(a.date)}</span>
                <span className="payroll-loads__what">
                  {a.late && <span className="tag">поздний рейс</span>} {a.driver_name}: {a.reason}
                  {a.concerns_month && a.concerns_month !== m.month ? ` (за ${monthLabel(a.concerns_month)})` : ''}
                  <span className="muted"> — {a.created_by_name ?? (a.late ? 'система' : '—')}</span>
                </span>
                <strong className={a.amount < 0 ? 'payroll-loads__sum money-negative' : 'payroll-loads__sum'}>{formatMoney(a.amount)}</strong>
              </li>
            ))}
            {m.later_adjustments.map((a) => (
              <li key={`later-${a.id}`} className="muted">
                <span className="payroll-loads__date">{formatDate(a.date)}</span>
                <span className="payroll-loads__what">
                  {a.late ? `Поздний рейс, оплачен ${inMonthLabel(monthOf(a.date))}` : `${capitalized(inMonthLabel(monthOf(a.date)))} по рейсу этого месяца`}: {a.driver_name}, {a.reason}
                </span>
                <span className="payroll-loads__sum">{formatMoney(a.amount)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {m.history.length > 0 && (
        <section className="card" aria-labelledby="payroll-history">
          <h2 id="payroll-history" className="staff-h2">
            История месяца
          </h2>
          <ul className="payroll-loads">
            {m.history.map((h, index) => (
              <li key={index}>
                <span className="payroll-loads__date">{formatDateTime(h.created_at)}</span>
                <span className="payroll-loads__what">
                  {h.action === 'close' ? 'Закрыт' : `Открыт заново: ${h.reason ?? ''}`} — {h.user_name ?? '—'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {dialog === 'adjust' && <AdjustmentDialog month={m} onClose={() => setDialog(null)} />}
      {dialog === 'reopen' && <ReopenDialog month={m} onClose={() => setDialog(null)} />}
    </>
  );
}
