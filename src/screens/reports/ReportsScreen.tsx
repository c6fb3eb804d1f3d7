/**
 * /reports (staff): every load of the company, newest first, paged on the server, filters in the URL — the
 * review queue (docs/reports-review.md). Each row shows its first photo, what the automatic checks found and where
 * its review stands; «Подтвердить все без замечаний (N)» approves the clean ones of the period in one action;
 * a row is approved or disputed with a reason. Keys: j/k move, a approves, d disputes, Enter opens.
 */
import { CLOSED_LOAD_NOTE } from '../../ui/money.ts';
import { useEffect, useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { showToast } from '../../ui/toasts.ts';
import type { ScreenProps } from '../../app/nav.ts';
import type { ReportListItem } from '../../../contract/calls/reports.ts';
import { FLAG_CODES, FLAG_LABELS, INFO_FLAGS, REPORT_FLAG_FILTERS, type ReportFlag } from '../../../contract/report-checks.ts';
import { REVIEW_STATUSES } from '../../../contract/entities.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { photoBlobQuery } from '../../engine/photo-blob.ts';
import { useEngineSnapshot } from '../../engine/store.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { FilterBar } from '../../ui/console/FilterBar.tsx';
import { companyOptions, FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { PERIOD_DEFAULTS, PeriodPicker, rangeOf } from '../../ui/console/PeriodPicker.tsx';
import { ReasonDialog } from '../../ui/ReasonDialog.tsx';
import { formatDate, formatDateTime, formatQuantity, formatTrips } from '../../ui/format.ts';
import { REPORTS, plural } from '../../../contract/words.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { useObjectUrl } from '../../ui/use-object-url.ts';
import { Page } from '../../ui/Page.tsx';
import { REVIEW_LABELS, REVIEW_OPTIONS } from '../../ui/statuses.ts';
import '../../ui/console/console.css';
import '../../ui/status-badge.css';
import { saveDayWaybills } from '../../parts/report/waybills.ts';
import './reports.css';
import { actionsColumn } from '../../ui/console/RowParts.tsx';

const DEFAULTS = { ...PERIOD_DEFAULTS, period: 'week', review: 'pending', flag: '', driver: '', search: '', company: '', page: '0' };
const FLAG_OPTIONS = [
  { value: 'any', label: 'Есть замечания' },
  { value: 'clean', label: 'Без замечаний' },
  ...FLAG_CODES.map((code) => ({ value: code, label: FLAG_LABELS[code] })),
];
const column = createColumnHelper<ReportListItem>();

export function ReportsScreen({ title }: ScreenProps) {
  const user = useEngineSnapshot().auth.user;
  const superAdmin = user?.role === 'super-admin';
  const scopeOf = (state: typeof DEFAULTS) => {
    const range = rangeOf(state);
    return {
      ...(range.start ? { date_from: range.start } : {}),
      ...(range.end ? { date_to: range.end } : {}),
      ...(state.driver ? { driver_id: Number(state.driver) } : {}),
      ...(superAdmin && state.company ? { company_id: Number(state.company) } : {}),
    };
  };
  const list = useListController({
    key: 'GET /reports/',
    defaults: DEFAULTS,
    paging: 'server',
    input: (state, paging) => {
      const review = REVIEW_STATUSES.find((r) => r === state.review);
      const flag = REPORT_FLAG_FILTERS.find((f) => f === state.flag);
      return { ...scopeOf(state), ...(review ? { review } : {}), ...(flag ? { flag } : {}), ...(state.search.trim() ? { search: state.search.trim() } : {}), ...paging };
    },
  });
  const { state } = list;
  const server = useNeedsServer();
  const [, navigate] = useLocation();
  const [confirmElement, ask] = useConfirm();
  const [disputing, setDisputing] = useState<ReportListItem | null>(null);
  const [cursor, setCursor] = useState(0);
  const range = rangeOf(state);
  // What «approve all clean» will approve: the period's pending reports without a fault flag.
  const clean = useGet('GET /reports/', { ...scopeOf(state), review: 'pending', flag: 'clean', limit: 1 });
  const companies = useGet(superAdmin ? 'GET /companies/' : null);
  const driverList = useDriverOptions(superAdmin ? state.company : '');
  const review = useSend('POST /reports/:id/review');
  const approveAll = useSend('POST /reports/review/approve-clean');
  const { rows } = list;
  const cleanCount = clean.data?.data.total ?? 0;
  const selected = rows[Math.min(cursor, rows.length - 1)] ?? null;

  function update(patch: Partial<typeof DEFAULTS>): void {
    setCursor(0);
    list.update(patch);
  }

  async function approve(report: ReportListItem): Promise<void> {
    try {
      await review.mutateAsync({ params: { id: report.id }, body: { action: 'approve' } });
      showToast('success', `Отчёт №${report.id} подтверждён`);
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  async function approveClean(): Promise<void> {
    if (!range.start || !range.end) return void showToast('error', 'Выберите период с началом и концом');
    const yes = await ask({
      title: `Подтвердить ${plural(cleanCount, REPORTS)} без замечаний?`,
      message: `Все ожидающие проверки отчёты за ${formatDate(range.start)}–${formatDate(range.end)}${state.driver ? ' этого водителя' : ''}, у которых автоматическая проверка ничего не нашла, станут подтверждёнными. Отчёты с замечаниями останутся в очереди.`,
      confirmLabel: 'Подтвердить',
    });
    if (!yes) return;
    try {
      const { approved } = await approveAll.mutateAsync({
        body: { ...scopeOf(state), date_from: range.start, date_to: range.end },
      });
      showToast('success', approved === 0 ? 'Подтверждать нечего: новых отчётов без замечаний нет' : `Подтверждено отчётов: ${approved}`);
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  // j/k move, a approves, d disputes, Enter opens — not while typing in a field or a dialog is open.
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      const target = event.target as HTMLElement | null;
      if (event.ctrlKey || event.metaKey || event.altKey || disputing) return;
      if (target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable || target.closest('dialog'))) return;
      if (event.key === 'j') setCursor((c) => Math.min(c + 1, Math.max(0, rows.length - 1)));
      else if (event.key === 'k') setCursor((c) => Math.max(0, c - 1));
      else if (event.key === 'a' && selected && !selected.closed && selected.review_status !== 'approved' && !server.offline) void approve(selected);
      else if (event.key === 'd' && selected && !selected.closed && selected.review_status !== 'disputed' && !server.offline) setDisputing(selected);
      else return;
      event.preventDefault();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  function actions(report: ReportListItem) {
    const busy = server.offline || review.isPending;
    if (report.closed) return <span className="muted">{CLOSED_LOAD_NOTE}</span>;
    return (
      <div className="row-actions" onClick={(event) => event.stopPropagation()}>
        {report.review_status !== 'approved' && (
          <button type="button" className="button button-small" disabled={busy} title={server.reason} onClick={() => void approve(report)}>
            Подтвердить
          </button>
        )}
        {report.review_status !== 'disputed' && (
          <button type="button" className="button button-small button-quiet" disabled={busy} title={server.reason} onClick={() => setDisputing(report)}>
            Оспорить
          </button>
        )}
      </div>
    );
  }

  const columns = [
    column.display({ id: 'photo', header: 'Фото', cell: (c) => <Thumb report={c.row.original} /> }),
    column.accessor('completed_at', {
      header: 'Рейс',
      cell: (c) => (
        <span className="report-when">
          <span>{formatDateTime(c.getValue())}</span>
          <span className="muted">№{c.row.original.id}</span>
        </span>
      ),
    }),
    column.accessor('driver_name', { header: 'Водитель', cell: (c) => c.getValue() ?? `Водитель №${c.row.original.driver_id}` }),
    column.display({
      id: 'task',
      header: 'Задача',
      cell: (c) => {
        const t = c.row.original.task;
        return (
          <span className="report-task">
            <span>
              №{t.id} · {t.cargo}
            </span>
            <span className="muted">
              {formatDate(t.date)} · {t.loading_place} → {t.unloading_place}
            </span>
          </span>
        );
      },
    }),
    column.accessor('delivered', {
      header: 'Доставлено',
      meta: { align: 'right' },
      cell: (c) => (
        <span className="report-quantity">
          {formatQuantity(c.getValue(), c.row.original.task.unit)}
          {c.row.original.trips > 1 ? <span className="muted">{formatTrips(c.row.original.trips)}</span> : null}
          {c.row.original.final ? <span className="muted">последний рейс</span> : null}
        </span>
      ),
    }),
    column.accessor('ticket_number', { header: 'Талон', cell: (c) => c.getValue() ?? <span className="muted">—</span> }),
    column.accessor('flags', { header: 'Проверка', cell: (c) => <Flags flags={c.getValue()} /> }),
    column.accessor('review_status', { header: 'Статус', cell: (c) => <Review report={c.row.original} /> }),
    actionsColumn(actions),
  ];

  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {confirmElement}
      <FilterBar
        search={state.search}
        onSearch={(search) => update({ search })}
        placeholder="Талон, № задачи, груз, место, водитель"
        actions={
          <>
            {range.start && range.start === range.end && (
              <button type="button" className="button" title="Накладные всех рейсов по задачам этого дня, одним файлом" onClick={() => void saveDayWaybills(range.start as string, superAdmin && state.company ? Number(state.company) : undefined)}>
                Накладные за день (PDF)
              </button>
            )}
            <button
              type="button"
              className="button button-primary"
              disabled={server.offline || cleanCount === 0 || approveAll.isPending || !range.start || !range.end}
              title={
                server.reason ??
                (!range.start || !range.end
                  ? 'Выберите период с началом и концом'
                  : cleanCount === 0
                    ? 'В выбранном периоде нет ожидающих отчётов без замечаний'
                    : undefined)
              }
              onClick={() => void approveClean()}
            >
              Подтвердить все без замечаний ({cleanCount})
            </button>
          </>
        }
      >
        <PeriodPicker state={state} onChange={(patch) => update(patch)} />
        <FilterSelect label="Проверка" value={state.review} onChange={(value) => update({ review: value })} options={REVIEW_OPTIONS} allLabel="Все" />
        <FilterSelect label="Замечания" value={state.flag} onChange={(flag) => update({ flag })} options={FLAG_OPTIONS} allLabel="Все" />
        <FilterSelect label="Водитель" value={state.driver} onChange={(driver) => update({ driver })} options={driverList} allLabel="Все водители" />
        {superAdmin && (
          <FilterSelect label="Компания" value={state.company} onChange={(company) => update({ company })} options={companyOptions(companies.data?.data ?? [])} allLabel="Все компании" />
        )}
      </FilterBar>
      <NeedsServerHint offline={server.offline} what="проверять отчёты" />
      <p className="muted reports-keys">
        Ожидают проверки: {list.answer?.pending ?? '…'}.<span className="reports-keys__desk"> Клавиши: j/k — вниз/вверх, a — подтвердить, d — оспорить, Enter — открыть.</span>
      </p>
      <ListFrame
        list={list}
        label={title}
        columns={columns}
        getRowId={(r) => String(r.id)}
        onOpen={(report) => navigate(`/reports/${report.id}`)}
        empty={<p>{state.review === 'pending' ? 'Все отчёты этого периода проверены.' : 'Отчётов по этим условиям нет.'}</p>}
        rowClassName={(r) => [r.id === selected?.id ? 'is-cursor' : '', r.review_status === 'disputed' ? 'is-disputed' : ''].join(' ').trim() || undefined}
        card={(report) => (
          <div className="report-card">
            <Thumb report={report} />
            <div className="report-card-body">
              <div className="report-card-head">
                <strong>
                  {formatQuantity(report.delivered, report.task.unit)} · {report.driver_name ?? `Водитель №${report.driver_id}`}
                </strong>
                <Review report={report} />
              </div>
              <span className="muted">
                №{report.task.id} {report.task.cargo} · {formatDateTime(report.completed_at)}
                {report.ticket_number ? ` · талон ${report.ticket_number}` : ''}
              </span>
              <Flags flags={report.flags} />
              {actions(report)}
            </div>
          </div>
        )}
      />
      {disputing && (
        <DisputeDialog
          report={disputing}
          onClose={() => setDisputing(null)}
          onSubmit={async (comment) => {
            await review.mutateAsync({ params: { id: disputing.id }, body: { action: 'dispute', comment } });
            showToast('success', `Отчёт №${disputing.id} оспорен: водитель увидит причину`);
            setDisputing(null);
          }}
        />
      )}
      <p className="muted">
        <Link href="/tasks/active">Активные задачи</Link> · <Link href="/tasks/manage">Все задачи</Link>
      </p>
    </Page>
  );
}

/** The drivers for the filter: the caller's company's (a super-admin's chosen company's), by name. */
function useDriverOptions(companyId: string): { value: number; label: string }[] {
  const query = useGet('GET /users/drivers/', companyId ? { company_id: Number(companyId) } : undefined);
  return [...(query.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'ru')).map((d) => ({ value: d.id, label: d.name }));
}

function Thumb({ report }: { report: ReportListItem }) {
  const photo = report.first_photo;
  const blob = useQuery({ ...photoBlobQuery(photo ?? { id: 0, url: '' }), enabled: photo !== null });
  const url = useObjectUrl(blob.data);
  if (!photo) return <span className="report-thumb report-thumb--none">нет фото</span>;
  return (
    <span className="report-thumb">
      {url ? <img src={url} alt={`Фото отчёта №${report.id}`} /> : <span className="muted">{blob.isError ? 'не загрузилось' : '…'}</span>}
      {report.photo_count > 1 ? <span className="report-thumb__count">+{report.photo_count - 1}</span> : null}
    </span>
  );
}

function Flags({ flags }: { flags: ReportFlag[] }) {
  if (flags.length === 0) return <span className="report-flag report-flag--ok">без замечаний</span>;
  return (
    <ul className="report-flags">
      {flags.map((flag) => (
        <li key={flag.code} className={`report-flag ${INFO_FLAGS.includes(flag.code) ? 'report-flag--info' : 'report-flag--fault'}`} title={flag.detail}>
          <strong>{FLAG_LABELS[flag.code]}</strong>
          <span>{flag.detail}</span>
        </li>
      ))}
    </ul>
  );
}

function Review({ report }: { report: ReportListItem }) {
  return (
    <span className="report-review">
      <span className={`status-badge review-${report.review_status}`}>{REVIEW_LABELS[report.review_status]}</span>
      {report.review_status === 'disputed' && report.review_comment ? <span className="muted">{report.review_comment}</span> : null}
    </span>
  );
}

function DisputeDialog({ report, onClose, onSubmit }: { report: ReportListItem; onClose: () => void; onSubmit: (comment: string) => Promise<void> }) {
  return (
    <ReasonDialog
      title={`Оспорить отчёт №${report.id}`}
      submitLabel="Оспорить"
      label="Что не так"
      field="comment"
      placeholder="Например: на талоне 20,9 т, а в отчёте 24,9"
      required="Напишите, что не так: водитель увидит это и исправит отчёт"
      maxLength={1000}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <p className="muted">
        {report.driver_name} · №{report.task.id} {report.task.cargo} · {formatQuantity(report.delivered, report.task.unit)}
      </p>
    </ReasonDialog>
  );
}
