/**
 * /manager-salary (manager, admin, super-admin). Salary = the manager's rate × the completed volume of the
 * tasks they created, task date in the period (this month by default). A manager sees their own, broken down
 * by task; an admin sees the managers and admins of their company and sets their rates (not their own); the
 * super-admin sees and sets everyone's. Every figure can be downloaded as xlsx.
 */
import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { showToast } from '../../ui/toasts.ts';
import type { ManagerWageItem, ManagerWageRow, ManagerWages } from '../../../contract/wages.ts';
import { ROLE_LABELS, isRole } from '../../../contract/roles.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { downloadOnce, useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { Field } from '../../ui/Field.tsx';
import { FormDialog } from '../../ui/FormDialog.tsx';
import { formatDate, formatMoney, formatQuantity, formatRate } from '../../ui/format.ts';
import { Page } from '../../ui/Page.tsx';
import { Loading, QueryError } from '../../ui/states.tsx';
import { DataTable } from '../../ui/console/DataTable.tsx';
import { PERIOD_DEFAULTS, PeriodPicker, rangeOf, rangeParams, type PeriodParams } from '../../ui/console/PeriodPicker.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { XlsxButton } from '../../ui/console/XlsxButton.tsx';
import '../../ui/console/console.css';
import '../../parts/accounts/accounts.css';
import '../../ui/console/figures.css';

const itemColumn = createColumnHelper<ManagerWageItem>();
const rowColumn = createColumnHelper<ManagerWageRow>();

const roleLabel = (role: string) => (isRole(role) ? ROLE_LABELS[role] : role);

export function ManagerSalaryScreen({ title }: ScreenProps) {
  const user = useEngineSnapshot().auth.user;
  const [state, setState] = useUrlState({ ...PERIOD_DEFAULTS, manager: '' });
  const range = rangeOf(state);
  const params = rangeParams(range);
  const manages = user?.role === 'admin' || user?.role === 'super-admin';
  const chosen = manages ? (state.manager ? Number(state.manager) : null) : (user?.id ?? null);

  return (
    <Page title={title} wide>
      <p className="account-note">
        Зарплата менеджера — его ставка за тонну, умноженная на выполненный объём задач, которые он создал, с датой задачи в выбранном
        периоде. Ставку задаёт администратор компании (свою — суперадминистратор).
      </p>
      <PeriodPicker state={state} onChange={(patch) => setState({ ...patch, manager: state.manager })} />
      {manages && <ManagerList params={params} chosen={chosen} onChoose={(id) => setState({ manager: id === null ? '' : String(id) })} />}
      {chosen !== null && <SalaryDetail managerId={chosen} params={params} ownId={user?.id ?? null} canSetRate={manages} />}
    </Page>
  );
}

function ManagerList({ params, chosen, onChoose }: { params: PeriodParams; chosen: number | null; onChoose: (id: number | null) => void }) {
  const query = useGet('GET /wages/managers/', params);
  const rows = query.data?.data ?? [];
  const columns = [
    rowColumn.accessor('manager_name', { header: 'Сотрудник', cell: (c) => <strong>{c.getValue()}</strong> }),
    rowColumn.accessor('role', { header: 'Роль', cell: (c) => roleLabel(c.getValue()) }),
    rowColumn.accessor('company_name', { header: 'Компания', cell: (c) => c.getValue() ?? '—' }),
    rowColumn.accessor('rate', { header: 'Ставка', meta: { align: 'right' }, cell: (c) => (c.getValue() === null ? <span className="muted">не задана</span> : formatRate(c.getValue())) }),
    rowColumn.accessor('total_quantity', { header: 'Объём', meta: { align: 'right' }, cell: (c) => formatQuantity(c.getValue(), 'т') }),
    rowColumn.accessor('total_amount', { header: 'Зарплата', meta: { align: 'right' }, cell: (c) => formatMoney(c.getValue()) }),
  ];
  if (query.isError && !query.data) return <QueryError query={query} />;
  return (
    <section aria-label="Менеджеры" className="salary-list">
      <div className="salary-list-head">
        <h2>Менеджеры и администраторы</h2>
        {query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}
      </div>
      <DataTable
        label="Менеджеры"
        columns={columns}
        data={rows}
        getRowId={(r) => String(r.manager_id)}
        loading={query.isPending}
        onOpen={(r) => onChoose(r.manager_id === chosen ? null : r.manager_id)}
        rowClassName={(r) => (r.manager_id === chosen ? 'is-selected' : undefined)}
        empty={<p>Менеджеров нет.</p>}
        card={(r) => (
          <div className="account-card">
            <div className="account-card-head">
              <strong>{r.manager_name}</strong>
              <span>{formatMoney(r.total_amount)}</span>
            </div>
            <span className="muted">
              {roleLabel(r.role)} · {r.company_name ?? '—'} · {r.rate === null ? 'ставка не задана' : formatRate(r.rate)} · {formatQuantity(r.total_quantity, 'т')}
            </span>
          </div>
        )}
      />
      <p className="muted">Нажмите на строку, чтобы увидеть, из чего сложилась сумма, и изменить ставку.</p>
    </section>
  );
}

function SalaryDetail({ managerId, params, ownId, canSetRate }: { managerId: number; params: PeriodParams; ownId: number | null; canSetRate: boolean }) {
  const query = useGet('GET /wages/manager/:id', { id: managerId, ...params });
  const server = useNeedsServer();
  const [editing, setEditing] = useState(false);
  const w = query.data?.data;
  const columns = [
    itemColumn.accessor('date', { header: 'Дата', cell: (c) => formatDate(c.getValue()) }),
    itemColumn.accessor('task_id', { header: '№ задачи', meta: { align: 'right' }, cell: (c) => c.getValue() }),
    itemColumn.accessor('cargo', { header: 'Груз', cell: (c) => c.getValue() }),
    itemColumn.accessor('completed_quantity', { header: 'Выполнено', meta: { align: 'right' }, cell: (c) => formatQuantity(c.getValue(), c.row.original.unit) }),
    itemColumn.accessor('amount', { header: 'Сумма', meta: { align: 'right' }, cell: (c) => formatMoney(c.getValue()) }),
  ];
  if (query.isPending) return <Loading text="Считаем зарплату..." />;
  if (query.isError && !query.data) return <QueryError query={query} />;
  if (!w) return null;
  const mayEdit = canSetRate && managerId !== ownId;
  return (
    <section className="card salary-detail" aria-labelledby="salary-title">
      <div className="card-head">
        <h2 id="salary-title">
          {w.manager_name}
          <span className="muted salary-role"> · {roleLabel(w.role)}{w.company_name ? ` · ${w.company_name}` : ''}</span>
        </h2>
        <div className="row-actions">
          {mayEdit && (
            <button type="button" className="button" disabled={server.offline} title={server.reason} onClick={() => setEditing(true)}>
              {w.rate === null ? 'Задать ставку' : 'Изменить ставку'}
            </button>
          )}
          <XlsxButton download={() => downloadOnce('GET /wages/manager/:id', { id: managerId, ...params, format: 'xlsx' })} disabled={server.offline} title={server.reason} />
        </div>
      </div>
      <dl className="salary-facts">
        <div>
          <dt>Ставка</dt>
          <dd>{w.rate === null ? 'Ставка не задана' : formatRate(w.rate)}</dd>
        </div>
        <div>
          <dt>Выполнено по задачам</dt>
          <dd>{formatQuantity(w.total_quantity, 'т')}</dd>
        </div>
        <div>
          <dt>Зарплата</dt>
          <dd className="salary-total">{formatMoney(w.total_amount)}</dd>
        </div>
      </dl>
      {w.rate === null && <p className="muted">Пока ставка не задана, зарплата равна нулю; объём по задачам считается.</p>}
      <DataTable
        label="Из чего сложилась зарплата"
        columns={columns}
        data={w.items}
        getRowId={(i) => String(i.task_id)}
        empty={<p>В этом периоде нет выполненных работ по задачам этого сотрудника.</p>}
        card={(i) => (
          <div className="account-card">
            <div className="account-card-head">
              <strong>
                №{i.task_id} · {i.cargo}
              </strong>
              <span>{formatMoney(i.amount)}</span>
            </div>
            <span className="muted">
              {formatDate(i.date)} · выполнено {formatQuantity(i.completed_quantity, i.unit)}
            </span>
          </div>
        )}
      />
      {editing && (
        <RateDialog
          wages={w}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            showToast('success', `Ставка сохранена (сотрудник: ${w.manager_name})`);
          }}
        />
      )}
    </section>
  );
}

function RateDialog({ wages, onClose, onSaved }: { wages: ManagerWages; onClose: () => void; onSaved: () => void }) {
  const save = useSend('PUT /wages/manager/:id/rate');
  const [rate, setRate] = useState(quantityText(wages.rate));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<void> {
    const parsed = parseQuantity(rate);
    if (!parsed.ok) return setError(parsed.error);
    setBusy(true);
    try {
      // Settled, the wage figures are refetched (the call's own area).
      await save.mutateAsync({ params: { id: wages.manager_id }, body: { rate: parsed.value } });
      onSaved();
    } catch (e) {
      setError(failureMessage(e).replace(/^rate:\s*/, ''));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog title={`Ставка: ${wages.manager_name}`} submitLabel="Сохранить" busy={busy} onSubmit={() => void submit()} onCancel={onClose}>
      <Field
        label="Ставка, ₽ за т выполненного объёма"
        inputMode="decimal"
        value={rate}
        error={error ?? undefined}
        hint="Пусто — ставки нет, зарплата по задачам не начисляется."
        onChange={(event) => setRate(event.target.value)}
      />
    </FormDialog>
  );
}
