/**
 * The frame the register screens share (/counterparties, /places, /vehicles): the company (a super-admin's choice in
 * the URL), the list on the console's list controller paged on the server and searched with `q`, the toolbar with
 * the main action, the offline hint, the table (cards on a phone), the card dialog; and the row actions of a card
 * that tasks may name (its tasks, edit, delete — archived instead when used, asked first, the toast saying which).
 */
import { useState, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import type { GetKey } from '../../../contract/calls/index.ts';
import type { RegisterRemoval } from '../../../contract/registers.ts';
import type { GetInput } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { CompanyPicker, NoCompany, useCompanyScope, type CompanyScope } from '../../ui/console/company-scope.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { useListController, type ListController, type RowOf } from '../../ui/console/list-controller.ts';
import type { CallAnswer } from '../../../contract/calls/index.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import type { DataTableProps } from '../../ui/console/DataTable.tsx';
import { RowActions, RowButton, useRowWork, type RowGate, type RowWorkOptions } from '../../ui/console/RowParts.tsx';
import '../accounts/accounts.css';
// The badges «В архиве», «В работе»: a register opened first in the tab has no other screen's chunk to bring them.
import '../../ui/status-badge.css';
import './registers.css';

type Filters = { search: string; page: string; company: string } & Record<string, string>;

/** A register's list: `filters` turns the screen's own URL filters into the call's query (search, company and page are added here). */
export function useRegisterList<K extends GetKey, S extends Filters>(key: K, defaults: S, filters: (state: S) => Record<string, unknown>) {
  const scope = useCompanyScope(new URLSearchParams(useSearch()).get('company') ?? '');
  const list = useListController({
    key: scope.superAdmin && scope.companyId === null ? null : key,
    defaults,
    paging: 'server',
    input: (state, paging) =>
      ({
        ...filters(state),
        ...(state.search.trim() ? { q: state.search.trim() } : {}),
        ...(scope.superAdmin && scope.companyId !== null ? { company_id: scope.companyId } : {}),
        ...(paging ? { limit: paging.limit, offset: paging.offset } : {}),
      }) as GetInput<K>,
  });
  const server = useNeedsServer();
  const work = useRowWork(server);
  const [editing, setEditing] = useState<{ card: RowOf<CallAnswer<K>> | null } | null>(null);
  /** The company a new card goes to: a super-admin names it, other staff's is their own. */
  const newCardCompany = scope.superAdmin ? scope.companyId : null;
  return { scope, list, server, work, editing, setEditing, newCardCompany };
}

/** What the page reads of `useRegisterList`, for rows of type T. */
interface RegisterFrame<T> {
  scope: CompanyScope;
  list: Pick<ListController, 'query' | 'total' | 'page' | 'paged' | 'setPage' | 'sort' | 'onSort' | 'selected' | 'setSelected' | 'everything'> & {
    rows: readonly T[];
    state: { search: string };
    update: (patch: { search?: string; company?: string }) => void;
  };
  server: { offline: boolean; reason?: string | undefined };
  work: { dialog: ReactNode };
  editing: { card: T | null } | null;
  setEditing: (editing: { card: T | null } | null) => void;
}

interface RegisterPageProps<T> {
  title: string;
  register: RegisterFrame<T>;
  note: ReactNode;
  searchPlaceholder: string;
  addLabel: string;
  filters: ReactNode;
  /** «изменять контрагентов» — what needs the server. */
  offlineWhat: string;
  label: string;
  columns: DataTableProps<T>['columns'];
  card: (row: T) => ReactNode;
  muted: (row: T) => boolean;
  empty: ReactNode;
  /** The card dialog while one is open. */
  dialog: ReactNode;
}

export function RegisterPage<T extends { id: number }>({ title, register, note, searchPlaceholder, addLabel, filters, offlineWhat, label, columns, card, muted, empty, dialog }: RegisterPageProps<T>) {
  const { scope, list, server, work, editing, setEditing } = register;
  if (scope.superAdmin && scope.companyId === null) {
    return (
      <Page title={title} wide>
        <NoCompany scope={scope} />
      </Page>
    );
  }
  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {work.dialog}
      <p className="account-note">{note}</p>
      <CompanyPicker scope={scope} onChange={(company) => list.update({ company })} />
      <FilterBar
        search={list.state.search}
        onSearch={(search) => list.update({ search })}
        placeholder={searchPlaceholder}
        actions={
          <button type="button" className="button button-primary" disabled={server.offline} title={server.reason} onClick={() => setEditing({ card: null })}>
            {addLabel}
          </button>
        }
      >
        {filters}
      </FilterBar>
      <NeedsServerHint offline={server.offline} what={offlineWhat} />
      <ListFrame
        list={list}
        label={label}
        columns={columns}
        getRowId={(row) => String(row.id)}
        onOpen={(row) => !server.offline && setEditing({ card: row })}
        empty={empty}
        rowClassName={(row) => (muted(row) ? 'is-muted' : undefined)}
        card={card}
      />
      {editing && dialog}
    </Page>
  );
}

/** «Контрагент» / «контрагента», «Место» / «места»: how the row actions and the questions name a card. */
export interface CardWords {
  /** «Контрагент», «Место». */
  noun: string;
  /** «контрагента», «места» (Удалить …). */
  genitive: string;
  /** «удалён», «удалено». */
  deleted: string;
  /** «перенесён», «перенесено». */
  moved: string;
  /** «указан», «указано». */
  named: string;
  /** What archiving keeps, after «… в архив, а не удал…:». */
  keeps: string;
  /** «восстановлен», «восстановлено». */
  restored: string;
  /** The task list's filter by this card's id (its «Задачи (N)»). */
  taskFilter: 'counterparty' | 'place';
}

/** The toasts of bringing a card back from the archive. */
export function restoreOptions(words: CardWords, card: { name: string }): RowWorkOptions<unknown> {
  return { done: `${words.noun} «${card.name}» ${words.restored} из архива`, refused: 'Не восстановлено' };
}

/** The question and the toasts of deleting a card that tasks may name: archived, not deleted, when they do. */
export function removeOptions(words: CardWords, card: { name: string; task_count: number }): RowWorkOptions<RegisterRemoval> {
  const used = card.task_count > 0;
  return {
    confirm: {
      title: `Удалить ${words.genitive} «${card.name}»?`,
      message: used ? (
        <p>
          {words.noun} {words.named} в задачах ({card.task_count}), поэтому будет <strong>{words.moved} в архив, а не {words.deleted}</strong>:{' '}
          {words.keeps}
        </p>
      ) : (
        <p>{words.noun} не {words.named} ни в одной задаче: карточка будет удалена без возможности восстановления.</p>
      ),
      confirmLabel: used ? 'В архив' : 'Удалить',
      danger: true,
    },
    done: (result) => (result.outcome === 'deleted' ? `${words.noun} «${card.name}» ${words.deleted}` : `${words.noun} «${card.name}» ${words.moved} в архив: ${result.detail}`),
    refused: 'Не удалено',
  };
}

/** A card's row actions: its tasks on «Управление задачами», edit, delete — in the archive «Восстановить» instead. */
export function CardActions({
  words,
  card,
  gate,
  onEdit,
  onRemove,
  extra,
  onRestore,
}: {
  words: CardWords;
  card: { id: number; name: string; task_count: number; archived_at: string | null };
  gate: RowGate;
  onEdit: () => void;
  onRemove: () => void;
  /** A register's own action before the common ones (a customer's «Цены»). */
  extra?: ReactNode;
  onRestore: () => void;
}) {
  const of = `${words.genitive}: ${card.name}`;
  return (
    <RowActions>
      {extra}
      {/* Exactly the tasks that link the card (by its id, as the count), its name for the list's filter chip. */}
      <Link className="button button-small button-quiet" href={`/tasks/manage?status=all&${words.taskFilter}=${card.id}&of=${encodeURIComponent(card.name)}`} aria-label={`Задачи ${of}`}>
        Задачи{card.task_count > 0 ? ` (${card.task_count})` : ''}
      </Link>
      <RowButton gate={gate} label={`Изменить ${of}`} onClick={onEdit}>
        Изменить
      </RowButton>
      {card.archived_at ? (
        <RowButton gate={gate} label={`Восстановить ${of}`} onClick={onRestore}>
          Восстановить
        </RowButton>
      ) : (
        <RowButton gate={gate} kind="quiet" label={`Удалить ${of}`} onClick={onRemove}>
          Удалить
        </RowButton>
      )}
    </RowActions>
  );
}

export function ArchivedBadge() {
  return <span className="status-badge status-cancelled">В архиве</span>;
}

/** The «Показать» filter of a register with an archive. */
export const ARCHIVE_OPTIONS = [
  { value: '', label: 'Действующие' },
  { value: '1', label: 'Архив' },
];
