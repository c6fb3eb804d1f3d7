/**
 * /drivers/manage (manager, admin, super-admin): the company's drivers with their current vehicle, status
 * and today's task count. Create and edit in a dialog; deactivate, reactivate and delete with confirmation.
 * A deactivated driver is refused on their very next call and their sessions end; a driver with history is
 * deactivated rather than erased, and the screen says so before and after.
 */
import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import type { DriverListItem } from '../../../contract/entities.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { formatCapacity } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { actionsColumn, RowActions, RowButton, RowCard, useRowWork } from '../../ui/console/RowParts.tsx';
import { AccountDialog } from '../../parts/accounts/AccountDialog.tsx';
import { valuesOf } from '../../parts/accounts/account-form.ts';
import { ActiveBadge, PersonCell } from '../../parts/accounts/parts.tsx';
import { DRIVER_DEFAULTS, filterDrivers, STATUS_OPTIONS } from './driver-list.ts';
import '../../parts/accounts/accounts.css';

const column = createColumnHelper<DriverListItem>();

type Editing = { kind: 'create' } | { kind: 'edit'; driver: DriverListItem } | null;

function Vehicle({ driver, withCapacity = true }: { driver: DriverListItem; withCapacity?: boolean }) {
  // The fleet's vehicle (issue 31) where one is chosen; else the transport typed on the driver before the fleet.
  const v = driver.vehicle;
  if (v) {
    return (
      <span>
        {v.plate}
        {v.make || v.model ? ` · ${[v.make, v.model].filter(Boolean).join(' ')}` : ''}
        {withCapacity && v.capacity_t !== null ? ` · ${formatCapacity(v.capacity_t)}` : ''}
      </span>
    );
  }
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
  const superAdmin = useEngineSnapshot().auth.user?.role === 'super-admin';
  const list = useListController({
    key: 'GET /users/drivers/',
    defaults: DRIVER_DEFAULTS,
    paging: 'client',
    input: (state) => ({ include_inactive: 'true' as const, ...(superAdmin && state.company ? { company_id: Number(state.company) } : {}) }),
    local: filterDrivers,
    sortKey: 'sort',
    descFirst: ['today'],
  });
  const { state, update } = list;
  const server = useNeedsServer();
  const work = useRowWork(server);
  const companyList = useGet(superAdmin ? 'GET /companies/' : null).data?.data ?? [];
  // Each write refetches the drivers (and tasks, requests and the board) when it settles, also after a refusal.
  const createCall = useSend('POST /users/drivers/');
  const updateCall = useSend('PUT /users/drivers/:id/');
  const removeCall = useSend('DELETE /users/drivers/:id/');
  const [editing, setEditing] = useState<Editing>(null);

  const setActive = (driver: DriverListItem, active: boolean) =>
    work.run(driver.id, () => updateCall.mutateAsync({ params: { id: driver.id }, body: { is_active: active } }), {
      confirm: !active && {
        title: `Отключить водителя «${driver.name}»?`,
        message: (
          <p>
            Водитель не сможет войти, а открытые сеансы на его телефоне завершатся при следующем действии. История задач и отчётов
            сохранится; включить водителя можно снова в любой момент.
          </p>
        ),
        confirmLabel: 'Отключить',
        danger: true,
      },
      done: active ? `Водитель «${driver.name}» снова активен` : `Водитель «${driver.name}» отключён`,
    });

  const remove = (driver: DriverListItem) =>
    work.run(driver.id, () => removeCall.mutateAsync({ params: { id: driver.id } }), {
      confirm: {
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
      },
      done: (result) => (result.outcome === 'deleted' ? `Водитель «${driver.name}» удалён` : result.detail),
    });

  function actions(driver: DriverListItem) {
    const gate = work.gate(driver.id);
    return (
      <RowActions>
        {/* The driver's day: their tasks and today's reports, one click from the list. */}
        <Link className="button button-small button-quiet" href={`/tasks/manage?status=all&search=${encodeURIComponent(driver.name)}`}>
          Задачи
        </Link>
        <Link className="button button-small button-quiet" href={`/reports?period=today&review=&driver=${driver.id}`}>
          Отчёты
        </Link>
        <RowButton gate={gate} onClick={() => setEditing({ kind: 'edit', driver })}>
          Изменить
        </RowButton>
        <RowButton gate={gate} kind="quiet" onClick={() => void setActive(driver, !driver.is_active)}>
          {driver.is_active ? 'Отключить' : 'Включить'}
        </RowButton>
        <RowButton gate={gate} kind="quiet" label={`Удалить водителя: ${driver.name}`} onClick={() => void remove(driver)}>
          Удалить
        </RowButton>
      </RowActions>
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
    column.accessor((d) => d.vehicle?.capacity_t ?? d.current_transport?.vehicle_capacity ?? null, {
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
    actionsColumn(actions),
  ];

  const empty =
    (list.answer ?? []).length === 0 ? (
      <p>В компании пока нет водителей. Добавьте первого кнопкой «Добавить водителя» или подтвердите заявку на регистрацию.</p>
    ) : (
      <p>По этому фильтру водителей нет.</p>
    );

  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {work.dialog}
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
      <ListFrame
        list={list}
        label="Водители"
        columns={columns}
        getRowId={(d) => String(d.id)}
        onOpen={(driver) => !server.offline && setEditing({ kind: 'edit', driver })}
        empty={empty}
        rowClassName={(d) => (d.is_active ? undefined : 'is-muted')}
        card={(driver) => (
          <RowCard title={driver.name} badge={<ActiveBadge active={driver.is_active} />} actions={actions(driver)}>
            <span className="muted">
              {driver.phone} · {driver.email}
            </span>
            <Vehicle driver={driver} />
            <span>Задач сегодня: {driver.today_task_count}</span>
          </RowCard>
        )}
      />
      {editing && (
        <AccountDialog
          title={editing.kind === 'create' ? 'Новый водитель' : `Водитель «${editing.driver.name}»`}
          submitLabel={editing.kind === 'create' ? 'Добавить' : 'Сохранить'}
          shape={{ fleet: true, company: superAdmin && editing.kind === 'create' }}
          loaded={editing.kind === 'edit' ? valuesOf(editing.driver) : null}
          initial={{ company_id: state.company }}
          companies={companyList}
          onClose={() => setEditing(null)}
          save={async (sent) => {
            if (sent.kind === 'create') {
              await createCall.mutateAsync({ body: sent.account });
              showToast('success', `Водитель «${sent.account.name}» добавлен`);
            } else if (editing.kind === 'edit') {
              await updateCall.mutateAsync({ params: { id: editing.driver.id }, body: sent.changes });
              showToast('success', `Изменения водителя «${editing.driver.name}» сохранены`);
            }
          }}
        />
      )}
    </Page>
  );
}
