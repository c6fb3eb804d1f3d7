/**
 * /drivers/manage (manager, admin, super-admin): the company's drivers with their current vehicle, status
 * and today's task count. Create and edit in a dialog; deactivate, reactivate and delete with confirmation.
 * A deactivated driver is refused on their very next call and their sessions end; a driver with history is
 * deactivated rather than erased, and the screen says so before and after.
 */
import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'wouter';
import { toast } from 'react-toastify';
import type { DriverListItem } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatCapacity } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { ErrorState } from '../../ui/states.tsx';
import { DataTable } from '../../ui/console/DataTable.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { AccountDialog } from '../accounts/AccountDialog.tsx';
import { valuesOf } from '../accounts/account-form.ts';
import { ActiveBadge, PersonCell } from '../accounts/parts.tsx';
import { PAGE_SIZE, Pager } from '../../ui/console/Pager.tsx';
import { DRIVER_DEFAULTS, filterDrivers, nextSort, STATUS_OPTIONS } from './driver-list.ts';
import '../accounts/accounts.css';

const column = createColumnHelper<DriverListItem>();

type Editing = { kind: 'create' } | { kind: 'edit'; driver: DriverListItem } | null;

function Vehicle({ driver, withCapacity = true }: { driver: DriverListItem; withCapacity?: boolean }) {
  const t = driver.current_transport;
  if (!t) return <span className="muted">нет транспорта</span>;
  return (
    <span>
      {t.vehicle_number}
      {t.vehicle_brand ? ` · ${t.vehicle_brand}` : ''}
      {withCapacity && t.vehicle_capacity !== null ? ` · ${formatCapacity(t.vehicle_capacity)}` : ''}
    </span>
  );
}

export function DriversManageScreen({ title }: ScreenProps) {
  const [state, setState] = useUrlState(DRIVER_DEFAULTS);
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const companyList = useGet(superAdmin ? 'GET /companies/' : null).data?.data ?? [];
  const query = useGet('GET /users/drivers/', { include_inactive: 'true', ...(superAdmin && state.company ? { company_id: Number(state.company) } : {}) });
  // Each write refetches the drivers (and tasks, requests and the board) when it settles, also after a refusal.
  const createCall = useSend('POST /users/drivers/');
  const updateCall = useSend('PUT /users/drivers/:id/');
  const removeCall = useSend('DELETE /users/drivers/:id/');
  const [editing, setEditing] = useState<Editing>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const all = query.data?.data ?? [];
  const rows = filterDrivers(all, state);
  const page = Math.min(Math.max(0, Number(state.page) || 0), Math.max(0, Math.ceil(rows.length / PAGE_SIZE) - 1));
  const visible = rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);

  function update(patch: Partial<typeof DRIVER_DEFAULTS>): void {
    setState({ page: '0', ...patch });
  }

  async function act(driver: DriverListItem, run: () => Promise<void>): Promise<void> {
    setBusyId(driver.id);
    try {
      await run();
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusyId(null);
    }
  }

  async function setActive(driver: DriverListItem, active: boolean): Promise<void> {
    if (!active) {
      const yes = await ask({
        title: `Отключить водителя «${driver.name}»?`,
        message: (
          <p>
            Водитель не сможет войти, а открытые сеансы на его телефоне завершатся при следующем действии. История задач и отчётов
            сохранится; включить водителя можно снова в любой момент.
          </p>
        ),
        confirmLabel: 'Отключить',
        danger: true,
      });
      if (!yes) return;
    }
    await act(driver, async () => {
      await updateCall.mutateAsync({ params: { id: driver.id }, body: { is_active: active } });
      toast.success(active ? `Водитель «${driver.name}» снова активен` : `Водитель «${driver.name}» отключён`);
    });
  }

  async function remove(driver: DriverListItem): Promise<void> {
    const yes = await ask({
      title: `Удалить водителя «${driver.name}»?`,
      message: driver.has_history ? (
        <p>
          У водителя есть задачи или отчёты, поэтому он будет <strong>отключён, а не удалён</strong>: история и начисления сохранятся,
          войти он больше не сможет.
        </p>
      ) : (
        <p>У водителя нет задач и отчётов: учётная запись и транспорт будут удалены без возможности восстановления.</p>
      ),
      confirmLabel: driver.has_history ? 'Отключить' : 'Удалить',
      danger: true,
    });
    if (!yes) return;
    await act(driver, async () => {
      const result = await removeCall.mutateAsync({ params: { id: driver.id } });
      toast.success(result.outcome === 'deleted' ? `Водитель «${driver.name}» удалён` : result.detail);
    });
  }

  function actions(driver: DriverListItem) {
    const disabled = server.offline || busyId === driver.id;
    return (
      <div className="row-actions" onClick={(event) => event.stopPropagation()}>
        {/* The driver's day: their tasks and today's reports, one click from the list. */}
        <Link className="button button-small button-quiet" href={`/tasks/manage?status=all&search=${encodeURIComponent(driver.name)}`}>
          Задачи
        </Link>
        <Link className="button button-small button-quiet" href={`/reports?period=today&review=&driver=${driver.id}`}>
          Отчёты
        </Link>
        <button type="button" className="button button-small" disabled={disabled} title={server.reason} onClick={() => setEditing({ kind: 'edit', driver })}>
          Изменить
        </button>
        {driver.is_active ? (
          <button type="button" className="button button-small button-quiet" disabled={disabled} title={server.reason} onClick={() => void setActive(driver, false)}>
            Отключить
          </button>
        ) : (
          <button type="button" className="button button-small button-quiet" disabled={disabled} title={server.reason} onClick={() => void setActive(driver, true)}>
            Включить
          </button>
        )}
        <button
          type="button"
          className="button button-small button-quiet"
          disabled={disabled}
          title={server.reason}
          aria-label={`Удалить водителя ${driver.name}`}
          onClick={() => void remove(driver)}
        >
          Удалить
        </button>
      </div>
    );
  }

  const columns = [
    column.accessor('name', {
      id: 'name',
      header: 'Водитель',
      enableSorting: true,
      cell: (c) => <PersonCell name={c.row.original.name} email={c.row.original.email} phone={c.row.original.phone} />,
    }),
    ...(superAdmin ? [column.accessor('company_name', { header: 'Компания', cell: (c) => c.getValue() ?? '—' })] : []),
    column.display({ id: 'vehicle', header: 'Транспорт', cell: (c) => <Vehicle driver={c.row.original} withCapacity={false} /> }),
    column.accessor((d) => d.current_transport?.vehicle_capacity ?? null, {
      id: 'capacity',
      header: 'Т',
      enableSorting: true,
      meta: { align: 'right', label: 'Грузоподъёмность' },
      cell: (c) => (c.getValue() === null ? '—' : formatCapacity(c.getValue())),
    }),
    column.accessor('today_task_count', {
      id: 'today',
      header: 'Задач сегодня',
      enableSorting: true,
      meta: { align: 'right' },
      cell: (c) => c.getValue(),
    }),
    column.accessor('is_active', { header: 'Статус', cell: (c) => <ActiveBadge active={c.getValue()} /> }),
    column.display({ id: 'actions', header: () => <span className="visually-hidden">Действия</span>, cell: (c) => actions(c.row.original) }),
  ];

  const empty =
    all.length === 0 ? (
      <p>В компании пока нет водителей. Добавьте первого кнопкой «Добавить водителя» или подтвердите заявку на регистрацию.</p>
    ) : (
      <p>По этому фильтру водителей нет.</p>
    );

  return (
    <Page title={title} wide aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {confirmElement}
      <p className="account-note">
        Водители компании и их текущий транспорт. Отключённый водитель не может войти, его сеансы завершаются сразу; водитель с задачами
        или отчётами при удалении отключается, а его история сохраняется. Заявки новых водителей — в разделе{' '}
        <Link href="/user-registration-requests">«Заявки на регистрацию»</Link>.
      </p>
      <FilterBar
        search={state.search}
        onSearch={(search) => update({ search })}
        placeholder="Имя, телефон, e-mail или госномер"
        actions={
          <button type="button" className="button button-primary" disabled={server.offline} title={server.reason} onClick={() => setEditing({ kind: 'create' })}>
            Добавить водителя
          </button>
        }
      >
        <FilterSelect label="Статус" value={state.status} onChange={(status) => update({ status })} options={STATUS_OPTIONS} />
        {superAdmin && (
          <FilterSelect label="Компания" value={state.company} onChange={(company) => update({ company })} options={companyOptions(companyList)} allLabel="Все компании" />
        )}
      </FilterBar>
      <NeedsServerHint offline={server.offline} what="изменять водителей" />
      {query.isError && !query.data ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <DataTable
          label="Водители"
          columns={columns}
          data={visible}
          getRowId={(d) => String(d.id)}
          sort={{ id: state.sort.replace(/^-/, ''), desc: state.sort.startsWith('-') }}
          onSort={(id) => update({ sort: nextSort(state.sort, id) })}
          onOpen={(driver) => !server.offline && setEditing({ kind: 'edit', driver })}
          loading={query.isPending}
          empty={empty}
          rowClassName={(d) => (d.is_active ? undefined : 'is-muted')}
          card={(driver) => (
            <div className="account-card">
              <div className="account-card-head">
                <strong>{driver.name}</strong>
                <ActiveBadge active={driver.is_active} />
              </div>
              <span className="muted">
                {driver.phone} · {driver.email}
              </span>
              <Vehicle driver={driver} />
              <span>Задач сегодня: {driver.today_task_count}</span>
              <div className="account-card-actions" onClick={(event) => event.stopPropagation()}>
                {actions(driver)}
              </div>
            </div>
          )}
        />
      )}
      <Pager page={page} total={rows.length} onPage={(next) => setState({ page: String(next) })} />
      {editing && (
        <AccountDialog
          title={editing.kind === 'create' ? 'Новый водитель' : `Водитель «${editing.driver.name}»`}
          submitLabel={editing.kind === 'create' ? 'Добавить' : 'Сохранить'}
          shape={{ vehicle: true, company: superAdmin && editing.kind === 'create' }}
          loaded={editing.kind === 'edit' ? valuesOf(editing.driver) : null}
          initial={{ company_id: state.company }}
          companies={companyList}
          onClose={() => setEditing(null)}
          save={async (sent) => {
            if (sent.kind === 'create') {
              await createCall.mutateAsync({ body: sent.account });
              toast.success(`Водитель «${sent.account.name}» добавлен`);
            } else if (editing.kind === 'edit') {
              await updateCall.mutateAsync({ params: { id: editing.driver.id }, body: sent.changes });
              toast.success(`Изменения водителя «${editing.driver.name}» сохранены`);
            }
          }}
        />
      )}
    </Page>
  );
}
