/**
 * /counterparties «Контрагенты» (staff; issue 31, docs/registers.md): the company's customers, shippers and
 * consignees — search by name or ИНН, a role filter, the archive; a card to create and edit every field; delete,
 * which the server turns into archiving when tasks name the card (asked first; the toast says which happened);
 * a card's tasks one click away on «Управление задачами»; a customer's «Цены» (its price list, docs/prices.md) and
 * «Реестр и счета» (the statement of trips, the acts and invoices, docs/statements.md); the unpaid acts under the list.
 * «Ссылка для заказчика» (his page without an account, docs/customer-link.md).
 */
import { Fragment, useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { COUNTERPARTY_ROLE_LABELS, COUNTERPARTY_ROLES, LEGAL_FORM_LABELS } from '../../../contract/requisites.ts';
import type { Counterparty } from '../../../contract/registers.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useSend } from '../../engine/api.ts';
import { showToast } from '../../ui/toasts.ts';
import { FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { actionsColumn, RowCard } from '../../ui/console/RowParts.tsx';
import { CounterpartyDialog } from '../../parts/registers/CounterpartyDialog.tsx';
import { PriceListDialog } from '../../parts/registers/PriceListDialog.tsx';
import { StatementDialog } from '../../parts/registers/StatementDialog.tsx';
import { UnpaidInvoices } from '../../parts/registers/UnpaidInvoices.tsx';
import { CustomerLinksDialog } from '../../parts/registers/CustomerLinksDialog.tsx';
import { ARCHIVE_OPTIONS, ArchivedBadge, CardActions, RegisterPage, removeOptions, restoreOptions, useRegisterList, type CardWords } from '../../parts/registers/RegisterPage.tsx';

const DEFAULTS = { search: '', role: '', archived: '', page: '0', company: '' };
const ROLE_OPTIONS = COUNTERPARTY_ROLES.map((role) => ({ value: role, label: COUNTERPARTY_ROLE_LABELS[role] }));
const WORDS: CardWords = {
  noun: 'Контрагент',
  genitive: 'контрагента',
  deleted: 'удалён',
  moved: 'перенесён',
  named: 'указан',
  keeps: 'задачи сохранят его имя и реквизиты, а в новые задачи его выбрать будет нельзя.',
  restored: 'восстановлен',
  taskFilter: 'counterparty',
};

const column = createColumnHelper<Counterparty>();
const rolesText = (c: Counterparty) => c.roles.map((r) => COUNTERPARTY_ROLE_LABELS[r]).join(', ');
/** Each number with its word on one line (a table cell breaks between them, never inside «ИНН 7707083893»). */
function Requisites({ c }: { c: Counterparty }) {
  return <Parts parts={[c.inn && { text: `ИНН ${c.inn}`, whole: true }, c.kpp && { text: `КПП ${c.kpp}`, whole: true }]} />;
}
/** The person's name breaks as any text, the phone never. */
function Contact({ c }: { c: Counterparty }) {
  return <Parts parts={[c.contact_name && { text: c.contact_name, whole: false }, c.phone && { text: c.phone, whole: true }]} />;
}
function Parts({ parts }: { parts: (false | null | '' | { text: string; whole: boolean })[] }) {
  const shown = parts.filter((part) => !!part);
  if (shown.length === 0) return '—';
  // The separator outside the spans: the line may break there.
  return shown.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && ' · '}
      {part.whole ? <span className="register-nowrap">{part.text}</span> : part.text}
    </Fragment>
  ));
}

export function CounterpartiesScreen({ title }: ScreenProps) {
  const register = useRegisterList('GET /counterparties/', DEFAULTS, (state) => ({
    ...(COUNTERPARTY_ROLES.find((r) => r === state.role) ? { role: state.role } : {}),
    ...(state.archived === '1' ? { archived: '1' } : {}),
  }));
  const { list, work, editing, setEditing } = register;
  const { state, update } = list;
  const removeCall = useSend('DELETE /counterparties/:id');
  const [prices, setPrices] = useState<Counterparty | null>(null);
  const [papers, setPapers] = useState<Counterparty | null>(null);
  const [links, setLinks] = useState<Counterparty | null>(null);
  const restoreCall = useSend('POST /counterparties/:id/restore');

  const actions = (c: Counterparty) => (
    <CardActions
      words={WORDS}
      card={c}
      gate={work.gate(c.id)}
      onEdit={() => setEditing({ card: c })}
      onRemove={() => void work.run(c.id, () => removeCall.mutateAsync({ params: { id: c.id } }), removeOptions(WORDS, c))}
      extra={
        c.roles.includes('customer') && (
          <>
            <button type="button" className="button button-small button-quiet" aria-label={`Цены заказчика: ${c.name}`} onClick={() => setPrices(c)}>
              Цены
            </button>
            <button type="button" className="button button-small button-quiet" aria-label={`Реестр и счета заказчика: ${c.name}`} onClick={() => setPapers(c)}>
              Реестр и счета
            </button>
            <button type="button" className="button button-small button-quiet" aria-label={`Ссылка для заказчика: ${c.name}`} onClick={() => setLinks(c)}>
              Ссылка для заказчика
            </button>
          </>
        )
      }
      onRestore={() => void work.run(c.id, () => restoreCall.mutateAsync({ params: { id: c.id } }), restoreOptions(WORDS, c))}
    />
  );

  const columns = [
    column.accessor('name', {
      header: 'Контрагент',
      cell: (c) => (
        <span className="register-name">
          <strong>{c.getValue()}</strong>
          {c.row.original.full_name && <span className="muted">{c.row.original.full_name}</span>}
        </span>
      ),
    }),
    column.accessor('legal_form', { header: 'Форма', cell: (c) => LEGAL_FORM_LABELS[c.getValue()] }),
    column.display({ id: 'requisites', header: 'ИНН / КПП', cell: (c) => <Requisites c={c.row.original} /> }),
    column.display({ id: 'roles', header: 'Роли', cell: (c) => rolesText(c.row.original) }),
    column.display({ id: 'contact', header: 'Контакт', cell: (c) => <Contact c={c.row.original} /> }),
    column.accessor('task_count', { header: 'Задач', meta: { align: 'right' }, cell: (c) => c.getValue() }),
    actionsColumn(actions),
  ];

  const filtered = state.search.trim() !== '' || state.role !== '' || state.archived !== '';
  return (
    <>
      <RegisterPage
      title={title}
      register={register}
      note="Заказчики, грузоотправители и грузополучатели компании с реквизитами для документов. Контрагент, указанный в задачах, при удалении переносится в архив."
      searchPlaceholder="Название или ИНН"
      addLabel="Добавить контрагента"
      offlineWhat="изменять контрагентов"
      label="Контрагенты"
      filters={
        <>
          <FilterSelect label="Роль" value={state.role} onChange={(role) => update({ role })} options={ROLE_OPTIONS} allLabel="Все роли" />
          <FilterSelect label="Показать" value={state.archived} onChange={(archived) => update({ archived })} options={ARCHIVE_OPTIONS} />
        </>
      }
      columns={columns}
      muted={(c) => c.archived_at !== null}
      empty={
        filtered ? (
          <p>По этому фильтру контрагентов нет.</p>
        ) : (
          <p>Контрагентов пока нет. Добавьте заказчиков, грузоотправителей и грузополучателей кнопкой «Добавить контрагента» — потом их можно выбирать в задачах.</p>
        )
      }
      card={(c) => (
        <RowCard title={c.name} badge={c.archived_at ? <ArchivedBadge /> : <span className="muted">{LEGAL_FORM_LABELS[c.legal_form]}</span>} actions={actions(c)}>
          <span>
            <Requisites c={c} />
          </span>
          <span className="muted">{rolesText(c)}</span>
          {(c.contact_name || c.phone) && (
            <span className="muted">
              <Contact c={c} />
            </span>
          )}
        </RowCard>
      )}
      dialog={
        editing && (
          <CounterpartyDialog
            card={editing.card}
            companyId={register.newCardCompany}
            onClose={() => setEditing(null)}
            onSaved={(saved) => {
              showToast('success', editing.card ? `Изменения контрагента «${saved.name}» сохранены` : `Контрагент «${saved.name}» добавлен`);
              setEditing(null);
            }}
          />
        )
      }
    />
      <UnpaidInvoices />
      {prices && <PriceListDialog customer={prices} onClose={() => setPrices(null)} />}
      {papers && <StatementDialog customer={papers} onClose={() => setPapers(null)} />}
      {links && <CustomerLinksDialog customer={links} onClose={() => setLinks(null)} />}
    </>
  );
}
