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
import { toast } from 'react-toastify';
import type { UserListPage, UserWire } from '../../../contract/entities.ts';
import type { CallBody, CallQuery } from '../../../contract/calls/index.ts';
import { STAFF_ROLES } from '../../../contract/payloads.ts';
import { ROLE_LABELS, ROLES, type Role } from '../../../contract/roles.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { ApiError } from '../../engine/queries.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { formatDate } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { ErrorState } from '../../ui/states.tsx';
import { DataTable } from '../../ui/console/DataTable.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { AccountDialog } from '../accounts/AccountDialog.tsx';
import { roleOf, valuesOf, type NewAccount } from '../accounts/account-form.ts';
import { ActiveBadge, PersonCell } from '../accounts/parts.tsx';
import { PAGE_SIZE, Pager } from '../../ui/console/Pager.tsx';
import '../accounts/accounts.css';

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
  const [state, setState] = useUrlState(DEFAULTS);
  const server = useNeedsServer();
  const [confirmElement, ask] = useConfirm();
  const me = useEngineSnapshot().auth.user;
  const companyList = useGet('GET /companies/').data?.data ?? [];
  const page = Math.max(0, Number(state.page) || 0);
  const params = {
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
    ordering: ORDERINGS.find((o) => o === state.ordering) ?? 'name',
    active: ACTIVE_OPTIONS.find((o) => o.value === state.active)?.value ?? 'all',
    role: state.role || v.roles.join(','),
    ...(state.search.trim() ? { search: state.search.trim() } : {}),
    ...(state.company ? { company_id: Number(state.company) } : {}),
  };
  const query = useGet('GET /users/', params, { placeholderData: (previous) => previous });
  // Each write refetches the users (and tasks, requests and the board) when it settles, also after a refusal.
  const createCall = useSend('POST /users/staff/');
  const updateCall = useSend('PUT /users/:id/');
  const [editing, setEditing] = useState<Editing>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const data = query.data?.data;
  const rows = data?.items ?? [];

  function update(patch: Partial<typeof DEFAULTS>): void {
    setState({ page: '0', ...patch });
  }

  async function setActive(user: Row, active: boolean): Promise<void> {
    if (!active) {
      const yes = await ask({
        title: `Отключить «${user.name}»?`,
        message: <p>{user.email} не сможет войти; открытые сеансы завершатся при следующем действии. Включить можно в любой момент.</p>,
        confirmLabel: 'Отключить',
        danger: true,
      });
      if (!yes) return;
    }
    setBusyId(user.id);
    try {
      await updateCall.mutateAsync({ params: { id: user.id }, body: { is_active: active } });
      toast.success(active ? `«${user.name}» снова активен` : `«${user.name}» отключён`);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusyId(null);
    }
  }

  function actions(user: Row) {
    const disabled = server.offline || busyId === user.id;
    return (
      <div className="row-actions">
        <button type="button" className="button button-small" disabled={disabled} title={server.reason} onClick={() => setEditing({ kind: 'edit', user })}>
          Изменить
        </button>
        {user.id !== me?.id &&
          (user.is_active ? (
            <button type="button" className="button button-small button-quiet" disabled={disabled} title={server.reason} onClick={() => void setActive(user, false)}>
              Отключить
            </button>
          ) : (
            <button type="button" className="button button-small button-quiet" disabled={disabled} title={server.reason} onClick={() => void setActive(user, true)}>
              Включить
            </button>
          ))}
      </div>
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
    column.display({ id: 'actions', header: () => <span className="visually-hidden">Действия</span>, cell: (c) => actions(c.row.original) }),
  ];

  const sortId = state.ordering.replace(/^-/, '');

  return (
    <Page title={title} wide aside={query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}>
      {confirmElement}
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
      {query.isError && !data ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <DataTable
          label={title}
          columns={columns}
          data={rows}
          getRowId={(u) => String(u.id)}
          sort={{ id: sortId, desc: state.ordering.startsWith('-') }}
          onSort={(id) => update({ ordering: sortId === id && !state.ordering.startsWith('-') ? `-${id}` : id })}
          onOpen={(user) => !server.offline && setEditing({ kind: 'edit', user })}
          loading={query.isPending}
          empty={<p>{v.empty}</p>}
          rowClassName={(u) => (u.is_active ? undefined : 'is-muted')}
          card={(user) => (
            <div className="account-card">
              <div className="account-card-head">
                <strong>{user.name}</strong>
                <ActiveBadge active={user.is_active} />
              </div>
              <span className="muted">
                {ROLE_LABELS[roleOf(user)]}
                {user.company_name ? ` · ${user.company_name}` : ''}
              </span>
              <span className="muted">
                {user.email} · {user.phone}
              </span>
              <div className="account-card-actions" onClick={(event) => event.stopPropagation()}>
                {actions(user)}
              </div>
            </div>
          )}
        />
      )}
      <Pager page={page} total={data?.total ?? 0} onPage={(next) => setState({ page: String(next) })} />
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
              toast.success(`Сотрудник «${sent.account.name}» добавлен`);
            } else if (editing.kind === 'edit') {
              await updateCall.mutateAsync({ params: { id: editing.user.id }, body: sent.changes });
              toast.success(`Изменения «${editing.user.name}» сохранены`);
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
