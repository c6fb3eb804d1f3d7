/**
 * /users/manage and /managers/manage (super-admin): one screen over GET /users/, paged on the server.
 * On /users/manage every user, with search and filters by role, company and activity; a super-admin
 * changes a role or company, sets a new password, deactivates or reactivates. On /managers/manage the same
 * list narrowed to managers and admins, where new ones are created. The server keeps the last active
 * super-admin and refuses self-deactivation; the dialog shows its reason.
 */
import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import type { UserListPage, UserWire } from '../../../contract/entities.ts';
import type { CallBody, CallQuery } from '../../../contract/calls/index.ts';
import { STAFF_ROLES } from '../../../contract/payloads.ts';
import { ROLE_LABELS, ROLES, type Role } from '../../../contract/roles.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { ApiError } from '../../engine/queries.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { formatDate } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { actionsColumn, RowActions, RowButton, RowCard, useRowWork } from '../../ui/console/RowParts.tsx';
import { AccountDialog } from '../../parts/accounts/AccountDialog.tsx';
import { roleOf, valuesOf, type NewAccount } from '../../parts/accounts/account-form.ts';
import { ActiveBadge, PersonCell } from '../../parts/accounts/parts.tsx';
import '../../parts/accounts/accounts.css';

type Row = UserListPage['items'][number];
type Editing = { kind: 'create' } | { kind: 'edit'; user: Row } | null;

type ListQuery = CallQuery<'GET /users/'>;
const column = createColumnHelper<Row>();
const ACTIVE_OPTIONS: { value: ListQuery['active']; label: string }[] = [
  { value: 'all', label: 'Все' },
  { value: 'true', label: 'Активные' },
  { value: 'false', label: 'Отключённые' },
];
const ORDERINGS: readonly ListQuery['ordering'][] = ['name', '-name', 'created_at', '-created_at', 'email', '-email'];
const DEFAULTS = { search: '', role: '', company: '', active: 'all', ordering: 'name', page: '0' };

interface Variant {
  /** The roles this screen lists and offers. */
  roles: readonly Role[];
  canCreate: boolean;
  note: React.ReactNode;
  empty: string;
}

const VARIANTS: Record<'users' | 'managers', Variant> = {
  users: {
    roles: ROLES,
    canCreate: false,
    note: (
      <>
        Все пользователи системы. Здесь меняют роль и компанию, задают новый пароль, отключают и включают учётные записи. Новая роль
        действует со следующего действия пользователя, новый пароль и отключение сразу завершают его сеансы. Водителей добавляют в{' '}
        <Link href="/drivers/manage">«Водителях»</Link>, менеджеров и администраторов — в <Link href="/managers/manage">«Менеджерах»</Link>.
      </>
    ),
    empty: 'Пользователей по этому фильтру нет.',
  },
  managers: {
    roles: STAFF_ROLES,
    canCreate: true,
    note: (
      <>
        Менеджеры и администраторы компаний. Менеджер ведёт задачи, водителей и заявки своей компании; администратор вдобавок управляет
        компаниями и ставками. Отключённый сотрудник не может войти, его сеансы завершаются сразу.
      </>
    ),
    empty: 'Менеджеров и администраторов по этому фильтру нет.',
  },
};

/**
 * A new manager or admin: the form offers only those roles and requires a company (its shape below), so both are
 * there; were one missing, the dialog shows it under its field as it would the server's refusal.
 */
function staffAccount(account: NewAccount): CallBody<'POST /users/staff/'> {
  const role = STAFF_ROLES.find((r) => r === account.role);
  const companyId = account.company_id;
  if (!role) throw new ApiError({ ok: false, status: null, network: false, message: 'role: Выберите роль' });
  if (companyId === undefined) throw new ApiError({ ok: false, status: null, network: false, message: 'company_id: Выберите компанию' });
  return { ...account, role, company_id: companyId };
}

function UsersManageScreen({ title, variant }: ScreenProps & { variant: 'users' | 'managers' }) {
  const v = VARIANTS[variant];
  const list = useListController({
    key: 'GET /users/',
    defaults: DEFAULTS,
    paging: 'server',
    input: (state, paging) => ({
      ...paging,
      ordering: ORDERINGS.find((o) => o === state.ordering) ?? 'name',
      active: ACTIVE_OPTIONS.find((o) => o.value === state.active)?.value ?? 'all',
      role: state.role || v.roles.join(','),
      ...(state.search.trim() ? { search: state.search.trim() } : {}),
      ...(state.company ? { company_id: Number(state.company) } : {}),
    }),
  });
  const { state, update } = list;
  const server = useNeedsServer();
  const work = useRowWork(server);
  const me = useEngineSnapshot().auth.user;
  const companyList = useGet('GET /companies/').data?.data ?? [];
  // Each write refetches the users (and tasks, requests and the board) when it settles, also after a refusal.
  const createCall = useSend('POST /users/staff/');
  const updateCall = useSend('PUT /users/:id/');
  const [editing, setEditing] = useState<Editing>(null);

  const setActive = (user: Row, active: boolean) =>
    work.run(user.id, () => updateCall.mutateAsync({ params: { id: user.id }, body: { is_active: active } }), {
      confirm: !active && {
        title: `Отключить «${user.name}»?`,
        message: <p>{user.email} не сможет войти; открытые сеансы завершатся при следующем действии. Включить можно в любой момент.</p>,
        confirmLabel: 'Отключить',
        danger: true,
      },
      done: active ? `«${user.name}» снова активен` : `«${user.name}» отключён`,
    });

  function actions(user: Row) {
    const gate = work.gate(user.id);
    return (
      <RowActions>
        <RowButton gate={gate} onClick={() => setEditing({ kind: 'edit', user })}>
          Изменить
        </RowButton>
        {user.id !== me?.id && (
          <RowButton gate={gate} kind="quiet" onClick={() => void setActive(user, !user.is_active)}>
            {user.is_active ? 'Отключить' : 'Включить'}
          </RowButton>
        )}
      </RowActions>
    );
  }
  const columns = [
    column.accessor('name', {
      header: 'Пользователь',
      enableSorting: true,
      cell: (c) => <PersonCell name={c.row.original.name} email={c.row.original.email} phone={c.row.original.phone} />,
    }),
    column.accessor((u) => ROLE_LABELS[roleOf(u)], { id: 'role', header: 'Роль' }),
    column.accessor('company_name', { header: 'Компания', cell: (c) => c.getValue() ?? '—' }),
    column.accessor('created_at', { header: 'Создан', enableSorting: true, cell: (c) => formatDate(c.getValue().slice(0, 10)) }),
    column.accessor('is_active', { header: 'Статус', cell: (c) => <ActiveBadge active={c.getValue()} /> }),
    actionsColumn(actions),
  ];

  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {work.dialog}
      <p className="account-note">{v.note}</p>
      <FilterBar
        search={state.search}
        onSearch={(search) => update({ search })}
        placeholder="Имя, e-mail или телефон"
        actions={
          v.canCreate && (
            <button type="button" className="button button-primary" disabled={server.offline} title={server.reason} onClick={() => setEditing({ kind: 'create' })}>
              Добавить сотрудника
            </button>
          )
        }
      >
        <FilterSelect
          label="Роль"
          value={state.role}
          onChange={(role) => update({ role })}
          options={v.roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
          allLabel="Все роли"
        />
        <FilterSelect label="Компания" value={state.company} onChange={(company) => update({ company })} options={companyOptions(companyList)} allLabel="Все компании" />
        <FilterSelect label="Статус" value={state.active} onChange={(active) => update({ active })} options={ACTIVE_OPTIONS} />
      </FilterBar>
      <NeedsServerHint offline={server.offline} what="изменять пользователей" />
      <ListFrame
        list={list}
        label={title}
        columns={columns}
        getRowId={(u) => String(u.id)}
        onOpen={(user) => !server.offline && setEditing({ kind: 'edit', user })}
        empty={<p>{v.empty}</p>}
        rowClassName={(u) => (u.is_active ? undefined : 'is-muted')}
        card={(user) => (
          <RowCard title={user.name} badge={<ActiveBadge active={user.is_active} />} actions={actions(user)}>
            <span className="muted">
              {ROLE_LABELS[roleOf(user)]}
              {user.company_name ? ` · ${user.company_name}` : ''}
            </span>
            <span className="muted">
              {user.email} · {user.phone}
            </span>
          </RowCard>
        )}
      />
      {editing && (
        <AccountDialog
          title={editing.kind === 'create' ? 'Новый сотрудник' : `«${editing.user.name}»`}
          submitLabel={editing.kind === 'create' ? 'Добавить' : 'Сохранить'}
          shape={{ roles: editing.kind === 'edit' && variant === 'users' ? ROLES : STAFF_ROLES, company: true }}
          loaded={editing.kind === 'edit' ? valuesOf(editing.user as UserWire) : null}
          initial={{ role: 'manager', company_id: state.company }}
          companies={companyList}
          onClose={() => setEditing(null)}
          save={async (sent) => {
            if (sent.kind === 'create') {
              await createCall.mutateAsync({ body: staffAccount(sent.account) });
              showToast('success', `Сотрудник «${sent.account.name}» добавлен`);
            } else if (editing.kind === 'edit') {
              await updateCall.mutateAsync({ params: { id: editing.user.id }, body: sent.changes });
              showToast('success', `Изменения «${editing.user.name}» сохранены`);
            }
          }}
        />
      )}
    </Page>
  );
}

export function ManagersManageScreen(props: ScreenProps) {
  return <UsersManageScreen {...props} variant="managers" />;
}

export function AllUsersManageScreen(props: ScreenProps) {
  return <UsersManageScreen {...props} variant="users" />;
}
