/**
 * /carrier-transfers (manager, admin, super-admin): tasks handed between carrier companies. Incoming ones are
 * accepted (the company gets its own task to put its drivers on) or declined with a reason; outgoing ones are
 * edited or withdrawn while they wait, and followed read-only once accepted. Tabs and filters live in the URL.
 */
import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import { TRANSFER_STATUS_LABELS, TRANSFER_STATUSES, type Transfer } from '../../../contract/transfers.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { formatDate, formatDateTime, formatQuantity } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { actionsColumn, RowActions, RowButton, RowCard, useRowWork } from '../../ui/console/RowParts.tsx';
import { DeclineDialog, ProgressDialog, TransferDialog } from './TransferDialogs.tsx';
import '../../ui/status-badge.css';
import './carrier-transfers.css';
import { Tabs } from '../../ui/Tabs.tsx';

const column = createColumnHelper<Transfer>();
const STATUS_CLASS = { pending: 'status-in_progress', accepted: 'status-completed', declined: 'status-cancelled' } as const;
const DIRECTIONS = ['incoming', 'outgoing'] as const;
const STATUS_OPTIONS = TRANSFER_STATUSES.map((value) => ({ value, label: TRANSFER_STATUS_LABELS[value] }));

type Dialog = { kind: 'create' } | { kind: 'edit'; transfer: Transfer } | { kind: 'decline'; transfer: Transfer } | { kind: 'progress'; transfer: Transfer } | null;

function Progress({ t }: { t: Transfer }) {
  if (t.status !== 'accepted') return <span className="muted">—</span>;
  if (!t.progress) return <span className="muted">задача получателя удалена</span>;
  const { completed_quantity, planned_quantity, drivers } = t.progress;
  const share = planned_quantity > 0 ? Math.min(100, Math.round((completed_quantity / planned_quantity) * 100)) : 0;
  return (
    <span className="transfer-progress">
      <span className="transfer-bar" aria-hidden="true">
        <span style={{ width: `${share}%` }} />
      </span>
      {formatQuantity(completed_quantity)} из {formatQuantity(planned_quantity, t.task.unit)} · водителей: {drivers}
    </span>
  );
}

export function CarrierTransfersScreen({ title }: ScreenProps) {
  const user = useEngineSnapshot().auth.user;
  const superAdmin = user?.role === 'super-admin';
  const list = useListController({
    key: 'GET /transfers/',
    defaults: { tab: superAdmin ? 'all' : 'incoming', status: '' },
    input: (s) => {
      const direction = DIRECTIONS.find((v) => v === s.tab);
      const status = TRANSFER_STATUSES.find((v) => v === s.status);
      return { ...(direction && !superAdmin ? { direction } : {}), ...(status ? { status } : {}) };
    },
  });
  const { state, update } = list;
  const server = useNeedsServer();
  const work = useRowWork(server);
  const [dialog, setDialog] = useState<Dialog>(null);
  const companies = useGet('GET /companies/').data?.data ?? [];
  // Each write refetches the transfers, the tasks and the board when it settles (its declaration's invalidates).
  const acceptCall = useSend('POST /transfers/:id/accept');
  const withdrawCall = useSend('DELETE /transfers/:id');

  const accept = (t: Transfer) =>
    work.run(t.id, () => acceptCall.mutateAsync({ params: { id: t.id } }), {
      confirm: {
        title: `Принять передачу №${t.id}?`,
        message: `«${t.task.cargo}», ${formatQuantity(t.quantity, t.task.unit)} от компании «${t.from_company.name}». В вашей компании появится задача, на которую вы назначите своих водителей.`,
        confirmLabel: 'Принять',
      },
      done: (done) => `Передача №${t.id} принята: задача №${done.carrier_task_id} ждёт водителей`,
    });

  const withdraw = (t: Transfer) =>
    work.run(t.id, () => withdrawCall.mutateAsync({ params: { id: t.id } }), {
      confirm: {
        title: `Отменить передачу №${t.id}?`,
        message: `Компания «${t.to_company.name}» больше не увидит её; задача «${t.task.cargo}» останется у вас.`,
        confirmLabel: 'Отменить передачу',
        cancelLabel: 'Не отменять',
        danger: true,
      },
      done: `Передача №${t.id} отменена`,
    });

  function actions(t: Transfer) {
    const gate = work.gate(t.id);
    const receiver = superAdmin || t.direction === 'incoming';
    const sender = superAdmin || t.direction === 'outgoing';
    return (
      <RowActions>
        {t.status === 'pending' && receiver && (
          <>
            <RowButton gate={gate} kind="primary" onClick={() => void accept(t)}>
              Принять
            </RowButton>
            <RowButton gate={gate} kind="quiet" onClick={() => setDialog({ kind: 'decline', transfer: t })}>
              Отклонить
            </RowButton>
          </>
        )}
        {t.status === 'pending' && sender && (
          <>
            <RowButton gate={gate} onClick={() => setDialog({ kind: 'edit', transfer: t })}>
              Изменить
            </RowButton>
            <RowButton gate={gate} kind="quiet" onClick={() => void withdraw(t)}>
              Отменить
            </RowButton>
          </>
        )}
        {t.status === 'accepted' && <RowButton onClick={() => setDialog({ kind: 'progress', transfer: t })}>Ход выполнения</RowButton>}
        {t.status === 'accepted' && t.carrier_task_id !== null && (superAdmin || t.direction === 'incoming') && (
          <Link className="button button-small button-quiet" href={`/tasks/manage?search=${encodeURIComponent(t.task.cargo)}`}>
            Назначить водителей
          </Link>
        )}
      </RowActions>
    );
  }

  const other = (t: Transfer) => (t.direction === 'incoming' ? `от «${t.from_company.name}»` : t.direction === 'outgoing' ? `в «${t.to_company.name}»` : `«${t.from_company.name}» → «${t.to_company.name}»`);

  const columns = [
    column.accessor('id', { header: '№', meta: { align: 'right' }, cell: (c) => c.getValue() }),
    column.display({
      id: 'task',
      header: 'Задача',
      cell: (c) => {
        const t = c.row.original;
        return (
          <span className="transfer-task">
            <strong>{t.task.cargo}</strong>
            <span className="muted">
              {formatDate(t.task.date)} · {t.task.loading_place} → {t.task.unloading_place}
            </span>
          </span>
        );
      },
    }),
    column.display({ id: 'company', header: 'Компания', cell: (c) => other(c.row.original) }),
    column.accessor('quantity', { header: 'Количество', meta: { align: 'right' }, cell: (c) => formatQuantity(c.getValue(), c.row.original.task.unit) }),
    column.accessor('status', {
      header: 'Статус',
      cell: (c) => {
        const t = c.row.original;
        return (
          <span className="transfer-status">
            <span className={`status-badge ${STATUS_CLASS[t.status]}`}>{TRANSFER_STATUS_LABELS[t.status]}</span>
            {t.decline_reason && <span className="muted">Причина: {t.decline_reason}</span>}
          </span>
        );
      },
    }),
    column.display({ id: 'progress', header: 'Ход', cell: (c) => <Progress t={c.row.original} /> }),
    actionsColumn(actions),
  ];

  const tabs = superAdmin
    ? [{ id: 'all', label: 'Все передачи' }]
    : [
        { id: 'incoming', label: 'Входящие' },
        { id: 'outgoing', label: 'Исходящие' },
      ];

  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {work.dialog}
      <p className="account-note">
        Передача отдаёт задачу или её часть другой компании-перевозчику. Пока получатель не ответил, отправитель может изменить или отменить
        передачу. Приняв её, получатель получает собственную задачу и сам назначает на неё водителей; отправитель видит ход выполнения. При
        отказе получатель указывает причину.
      </p>
      <div className="transfer-toolbar">
        <Tabs label="Передачи" tabs={tabs} selected={state.tab} onSelect={(tab) => update({ tab })} />
        <div className="filter-slots">
          <FilterSelect label="Статус" value={state.status} onChange={(status) => update({ status })} options={STATUS_OPTIONS} allLabel="Все статусы" />
        </div>
        <button type="button" className="button button-primary" disabled={server.offline} title={server.reason} onClick={() => setDialog({ kind: 'create' })}>
          Передать задачу
        </button>
      </div>
      <NeedsServerHint offline={server.offline} what="передавать задачи и отвечать на передачи" />
      <ListFrame
        list={list}
        label="Передачи"
        columns={columns}
        getRowId={(t) => String(t.id)}
        empty={
          <p>
            {state.tab === 'outgoing'
              ? 'Вы ещё не передавали задачи. Кнопка «Передать задачу» отдаст задачу или её часть другой компании.'
              : state.tab === 'incoming'
                ? 'Другие компании пока не передавали вам задач.'
                : 'Передач пока нет.'}
          </p>
        }
        card={(t) => (
          <RowCard
            title={`№${t.id} · ${t.task.cargo}`}
            badge={<span className={`status-badge ${STATUS_CLASS[t.status]}`}>{TRANSFER_STATUS_LABELS[t.status]}</span>}
            actions={actions(t)}
          >
            <span className="muted">
              {formatDate(t.task.date)} · {t.task.loading_place} → {t.task.unloading_place}
            </span>
            <span>
              {other(t)} · {formatQuantity(t.quantity, t.task.unit)}
            </span>
            {t.decline_reason && <span className="muted">Причина: {t.decline_reason}</span>}
            {t.status === 'accepted' && <Progress t={t} />}
            <span className="muted">
              Создана {formatDateTime(t.created_at)}
              {t.created_by_name ? `, ${t.created_by_name}` : ''}
            </span>
          </RowCard>
        )}
      />
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <TransferDialog
          editing={dialog.kind === 'edit' ? dialog.transfer : null}
          companies={companies}
          ownCompanyId={user?.company_id ?? null}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            setDialog(null);
            showToast('success', dialog.kind === 'edit' ? `Передача №${saved.id} изменена` : `Задача передана в «${saved.to_company.name}»: ждём ответа`);
            if (dialog.kind === 'create' && !superAdmin) update({ tab: 'outgoing' });
          }}
        />
      )}
      {dialog?.kind === 'decline' && (
        <DeclineDialog
          transfer={dialog.transfer}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            showToast('success', `Передача №${dialog.transfer.id} отклонена`);
          }}
        />
      )}
      {dialog?.kind === 'progress' && <ProgressDialog transfer={dialog.transfer} onClose={() => setDialog(null)} />}
    </Page>
  );
}
