/**
 * /documents «Документы» (staff; issue 33 §3, docs/documents.md «The exchange»): every title of the company's trips
 * in the exchange with its state — черновик, готов к подписи, отправлен, принят (УИД ТрН), отклонён (the operator's
 * reason and the fix), аннулирован —, filtered by state, the trips' period, vehicle and counterparty (all in the URL,
 * paged on the server). Row actions: «Готов к подписи» (the XML made now and frozen; the server names what is
 * missing), «Аннулировать» asked first, the frozen XML. The files adapter: «Скачать ZIP за день» (the day's ready
 * titles, each sent once) and «Загрузить ответы оператора» (the answer files, each file's outcome listed); with
 * Диадок's API configured for the company (docs/documents.md «The Диадок API adapter») those two give way to the
 * adapter's line: its box and the job's last pass (sent, accepted, rejected, waiting, errors).
 * Rows are selectable (the page's all at once): «Готов к подписи» for the selected ones in one call (POST
 * /documents/ready), asked first, each document's outcome listed; the ones that could not move stay selected.
 */
import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'wouter';
import {
  DOCUMENT_STATE_LABELS,
  DOCUMENT_STATES,
  DOCUMENT_TITLE_LABELS,
  type AnswersResult,
  type DocumentExchange,
  type DocumentItem,
  type DocumentState,
} from '../../../contract/documents.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { downloadOnce, sendOnce, useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { DateInput } from '../../ui/DateInput.tsx';
import { saveDownload } from '../../ui/download.ts';
import { formatDate, formatDateTime, isoDate } from '../../ui/format.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Page } from '../../ui/Page.tsx';
import { showToast } from '../../ui/toasts.ts';
import { FilterSelect } from '../../ui/console/FilterSelect.tsx';
import { useListController } from '../../ui/console/list-controller.ts';
import { ListCacheNote, ListFrame } from '../../ui/console/ListFrame.tsx';
import { actionsColumn, RowActions, RowButton, RowCard, useRowWork } from '../../ui/console/RowParts.tsx';
import { BulkBar, BulkResults } from '../../ui/console/BulkResults.tsx';
import type { BulkOutcome } from '../../ui/console/bulk.ts';
import './documents.css';

const column = createColumnHelper<DocumentItem>();
const DEFAULTS = { state: '', from: '', to: '', vehicle: '', counterparty: '', page: '0' };
const OUTCOME_WORDS: Record<AnswersResult['outcomes'][number]['outcome'], string> = {
  accepted: 'принят',
  rejected: 'отклонён',
  unchanged: 'без изменений',
  unknown: 'не найден',
  invalid: 'не прочитан',
};

function StateBadge({ state }: { state: DocumentState }) {
  return <span className={`doc-state doc-state--${state}`}>{DOCUMENT_STATE_LABELS[state]}</span>;
}

/** The operator's word on a document: its УИД once accepted, the reason and the fix once rejected. */
function Outcome({ d }: { d: DocumentItem }) {
  if (d.state === 'accepted' && d.uid) return <span className="muted">УИД ТрН {d.uid}</span>;
  if ((d.state === 'rejected' || d.state === 'annulled') && d.reason)
    return (
      <span className="doc-reason">
        {d.reason}
        {d.fix && <span className="muted"> Что исправить: {d.fix}</span>}
      </span>
    );
  return null;
}

/** Which adapter the company's titles go through and, for Диадок's API, its job's last pass. */
function ExchangeLine({ exchange }: { exchange: DocumentExchange }) {
  if (exchange.adapter === 'files') {
    return <p className="doc-adapter muted">Обмен с оператором: файлами — архив за день и ответы оператора.</p>;
  }
  const run = exchange.last_run;
  return (
    <section className="card doc-adapter" aria-label="Обмен с оператором">
      <p>
        <strong>Обмен с оператором: Контур.Диадок по API</strong> <span className="muted">ящик {exchange.box_id}</span>
      </p>
      <p className="muted">
        Готовые документы уходят в Диадок сами, без подписи: подпишите их КЭП в Диадоке. Ответ ГИС ЭПД (УИД или причина отказа) приходит сюда при
        следующем опросе.
      </p>
      {run ? (
        <p>
          Последний опрос {formatDateTime(run.at)}: отправлено {run.sent}, принято {run.accepted}, отклонено {run.rejected}, ждут ответа {run.waiting}, получено титулов {run.received ?? 0}
          {run.errors.length === 0 ? ', ошибок нет.' : '.'}
        </p>
      ) : (
        <p>Опросов ещё не было.</p>
      )}
      {run && run.errors.length > 0 && (
        <ul className="doc-adapter-errors">
          {run.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

async function fileData(file: File): Promise<{ name: string; data: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name, data: btoa(binary) };
}

export function DocumentsScreen({ title }: ScreenProps) {
  const list = useListController({
    key: 'GET /documents/',
    defaults: DEFAULTS,
    paging: 'server',
    input: (state, paging) => ({
      ...paging,
      ...(DOCUMENT_STATES.find((s) => s === state.state) ? { state: state.state as DocumentState } : {}),
      ...(state.from ? { from: state.from } : {}),
      ...(state.to ? { to: state.to } : {}),
      ...(state.vehicle ? { vehicle_id: Number(state.vehicle) } : {}),
      ...(state.counterparty ? { counterparty_id: Number(state.counterparty) } : {}),
    }),
  });
  const { state, update, selected, setSelected } = list;
  const server = useNeedsServer();
  const work = useRowWork(server);
  const ready = useSend('POST /documents/:id/ready');
  const annul = useSend('POST /documents/:id/annul');
  const vehicles = useGet('GET /vehicles/', { limit: 200 }).data?.data.items ?? [];
  const counterparties = useGet('GET /counterparties/', { limit: 200 }).data?.data.items ?? [];
  const counts = list.answer?.counts;
  const exchange = list.answer?.exchange;
  const viaApi = exchange?.adapter === 'diadoc';
  const [day, setDay] = useState(() => state.to || isoDate(new Date()));
  const [busy, setBusy] = useState<'export' | 'answers' | null>(null);
  const [answers, setAnswers] = useState<AnswersResult | null>(null);
  const [bulkResult, setBulkResult] = useState<BulkOutcome[] | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const byId = new Map(list.rows.map((d) => [String(d.id), d]));
  const chosen = [...selected].map((id) => byId.get(id)).filter((d): d is DocumentItem => d !== undefined);
  const readyable = chosen.filter((d) => d.can_mark_ready);

  async function exportDay(): Promise<void> {
    setBusy('export');
    try {
      const file = await downloadOnce('GET /documents/export', { date: day });
      if (file) {
        saveDownload(file.blob, file.filename);
        showToast('success', `Архив за ${formatDate(day)} скачан: документы отмечены «Отправлен»`);
      }
      await list.query.refetch();
    } catch (error) {
      showToast('error', failureMessage(error));
    } finally {
      setBusy(null);
    }
  }

  async function uploadAnswers(files: FileList | null): Promise<void> {
    if (!files || files.length === 0) return;
    setBusy('answers');
    try {
      const result = await sendOnce('POST /documents/answers', { body: { files: await Promise.all([...files].map(fileData)) } });
      setAnswers(result);
      const notApplied = result.outcomes.length - result.applied;
      showToast(notApplied > 0 ? 'error' : 'success', `Ответов учтено: ${result.applied}${notApplied > 0 ? `, не учтено: ${notApplied} — подробности под фильтрами` : ''}`);
      await list.query.refetch();
    } catch (error) {
      showToast('error', failureMessage(error));
    } finally {
      setBusy(null);
    }
  }

  const name = (d: DocumentItem) => `${DOCUMENT_TITLE_LABELS[d.title]} по ТН № ${d.waybill_number}`;

  /** «Готов к подписи» for the selected drafts in one call: asked first, each one's outcome listed. */
  async function bulkReady(): Promise<void> {
    const skipped = chosen.length - readyable.length;
    const yes = await work.ask({
      title: `Отметить «Готов к подписи» выбранные документы (${readyable.length})?`,
      message: (
        <p>
          XML каждого документа будет сформирован из данных рейса сейчас и зафиксирован. Документ, которому не хватает сведений, останется черновиком — причина будет показана.
          {skipped > 0 && ` Не черновики и не отклонённые (${skipped}) пропускаются.`}
        </p>
      ),
      confirmLabel: 'Отметить готовыми',
    });
    if (!yes) return;
    setBulkBusy(true);
    try {
      const result = await sendOnce('POST /documents/ready', { body: { ids: readyable.map((d) => d.id) } });
      const outcomes = result.outcomes.map((o) => {
        const d = byId.get(String(o.id));
        return { id: String(o.id), label: d ? name(d) : `Документ № ${o.id}`, ok: o.ok, message: o.detail };
      });
      setBulkResult(outcomes);
      setSelected(new Set(outcomes.filter((o) => !o.ok).map((o) => o.id)));
      showToast(result.moved === outcomes.length ? 'success' : 'error', `Готовы к подписи: ${result.moved} из ${outcomes.length}`);
    } catch (error) {
      showToast('error', failureMessage(error));
    } finally {
      setBulkBusy(false);
      await list.query.refetch();
    }
  }
  const markReady = (d: DocumentItem) =>
    work.run(d.id, () => ready.mutateAsync({ params: { id: d.id } }), { done: `${name(d)}: готов к подписи`, refused: 'Не готов' });
  const annulDoc = (d: DocumentItem) =>
    work.run(d.id, () => annul.mutateAsync({ params: { id: d.id }, body: {} }), {
      confirm: {
        title: `Аннулировать ${name(d)}?`,
        message: <p>Документ останется в списке как аннулированный; титул этого рейса можно будет взять в работу заново.</p>,
        confirmLabel: 'Аннулировать',
        danger: true,
      },
      done: `${name(d)} аннулирован`,
    });
  const downloadXml = (d: DocumentItem) =>
    work.run(d.id, async () => {
      const file = await downloadOnce('GET /documents/:id/file.xml', { id: d.id });
      if (file) saveDownload(file.blob, file.filename);
    });

  function actions(d: DocumentItem) {
    const gate = work.gate(d.id);
    return (
      <RowActions>
        {d.can_mark_ready && (
          <RowButton gate={gate} kind="primary" onClick={() => void markReady(d)}>
            Готов к подписи
          </RowButton>
        )}
        {d.file_name && (
          <RowButton gate={gate} onClick={() => void downloadXml(d)} label={`XML ${name(d)}`}>
            XML
          </RowButton>
        )}
        {d.can_annul && (
          <RowButton gate={gate} kind="quiet" onClick={() => void annulDoc(d)}>
            Аннулировать
          </RowButton>
        )}
      </RowActions>
    );
  }

  const columns = [
    column.accessor('waybill_number', { header: 'ТН', cell: (c) => <Link href={`/reports/${c.row.original.report_id}`}>№ {c.getValue()}</Link> }),
    column.accessor((d) => DOCUMENT_TITLE_LABELS[d.title], { id: 'title', header: 'Титул' }),
    column.accessor('trip_date', { header: 'Дата рейса', cell: (c) => formatDate(c.getValue()) }),
    column.accessor((d) => [d.vehicle_plate, d.driver_name].filter(Boolean).join(' · ') || '—', { id: 'vehicle', header: 'Машина и водитель' }),
    column.accessor((d) => d.counterparties.map((p) => p.name).join(', ') || '—', { id: 'counterparties', header: 'Контрагенты' }),
    column.accessor('state', {
      header: 'Состояние',
      cell: (c) => (
        <span className="doc-state-cell">
          <StateBadge state={c.getValue()} />
          <Outcome d={c.row.original} />
        </span>
      ),
    }),
    actionsColumn(actions),
  ];

  return (
    <Page title={title} wide aside={<ListCacheNote list={list} />}>
      {work.dialog}
      <p className="account-note">
        {viaApi
          ? 'Титулы ЭТрН рейсов компании. «Готов к подписи» формирует XML и фиксирует его; готовые документы отправляются в Диадок сами, один раз. Титул рейса добавляют кнопкой «В «Документы»» на странице рейса.'
          : 'Титулы ЭТрН рейсов компании. «Готов к подписи» формирует XML и фиксирует его; архив за день передаёт готовые документы оператору ЭДО один раз — загрузите его в кабинете оператора, а ответы оператора загрузите сюда. Титул рейса добавляют кнопкой «В «Документы»» на странице рейса.'}
      </p>
      <div className="filter-bar">
        <div className="filter-slots">
          <FilterSelect
            label="Состояние"
            value={state.state}
            onChange={(next) => update({ state: next })}
            options={DOCUMENT_STATES.map((s) => ({ value: s, label: counts ? `${DOCUMENT_STATE_LABELS[s]} (${counts[s]})` : DOCUMENT_STATE_LABELS[s] }))}
            allLabel="Все"
          />
          <label>
            С
            <DateInput aria-label="Рейсы с" value={state.from} onValue={(from) => update({ from })} max={state.to || undefined} />
          </label>
          <label>
            По
            <DateInput aria-label="Рейсы по" value={state.to} onValue={(to) => update({ to })} min={state.from || undefined} />
          </label>
          <FilterSelect label="Машина" value={state.vehicle} onChange={(vehicle) => update({ vehicle })} options={vehicles.map((v) => ({ value: v.id, label: v.plate }))} allLabel="Все машины" />
          <FilterSelect
            label="Контрагент"
            value={state.counterparty}
            onChange={(counterparty) => update({ counterparty })}
            options={counterparties.map((p) => ({ value: p.id, label: p.name }))}
            allLabel="Все контрагенты"
          />
        </div>
      </div>
      {exchange && <ExchangeLine exchange={exchange} />}
      {!viaApi && (
        <div className="doc-exchange" aria-label="Архив и ответы оператора">
          <label>
            День рейсов
            <DateInput aria-label="День рейсов для архива" value={day} onValue={setDay} />
          </label>
          <button type="button" className="button button-primary" disabled={server.offline || busy !== null || !day} title={server.reason} onClick={() => void exportDay()}>
            {busy === 'export' ? 'Готовим…' : 'Скачать ZIP за день'}
          </button>
          <label className={`button${server.offline || busy !== null ? ' is-disabled' : ''}`}>
            {busy === 'answers' ? 'Загружаем…' : 'Загрузить ответы оператора'}
            <input
              type="file"
              className="visually-hidden"
              accept=".json,application/json"
              multiple
              disabled={server.offline || busy !== null}
              onChange={(event) => {
                void uploadAnswers(event.target.files);
                event.target.value = '';
              }}
            />
          </label>
        </div>
      )}
      <NeedsServerHint offline={server.offline} what="отправлять документы и загружать ответы" />
      {answers && (
        <section className="card doc-answers" aria-label="Ответы оператора">
          <p>
            Ответов учтено: {answers.applied} из {answers.outcomes.length}.
          </p>
          <ul>
            {answers.outcomes.map((o, i) => (
              <li key={`${o.name}-${i}`} className={o.outcome === 'unknown' || o.outcome === 'invalid' ? 'is-refused' : undefined}>
                <strong>{o.name}</strong> — {OUTCOME_WORDS[o.outcome]}: {o.detail}
              </li>
            ))}
          </ul>
          <button type="button" className="button button-small button-quiet" onClick={() => setAnswers(null)}>
            Скрыть
          </button>
        </section>
      )}
      {bulkResult && <BulkResults title="Готов к подписи" outcomes={bulkResult} onClose={() => setBulkResult(null)} />}
      <BulkBar count={chosen.length} onClear={() => setSelected(new Set())}>
        <button
          type="button"
          className="button button-small button-primary"
          disabled={server.offline || bulkBusy || readyable.length === 0}
          title={readyable.length === 0 ? 'Среди выбранных нет черновиков' : server.reason}
          onClick={() => void bulkReady()}
        >
          {bulkBusy ? 'Формируем…' : `Готов к подписи (${readyable.length})`}
        </button>
      </BulkBar>
      <ListFrame
        list={list}
        selectable
        label={title}
        columns={columns}
        getRowId={(d) => String(d.id)}
        empty={
          <p>
            Документов по этому фильтру нет. Титул рейса добавляют кнопкой «В «Документы»» на странице рейса, в разделе «Документы» (<Link href="/reports">Отчёты</Link>).
          </p>
        }
        rowClassName={(d) => (d.state === 'annulled' ? 'is-muted' : undefined)}
        card={(d) => (
          <RowCard title={`${DOCUMENT_TITLE_LABELS[d.title]} · № ${d.waybill_number}`} badge={<StateBadge state={d.state} />} actions={actions(d)}>
            <span className="muted">
              {formatDate(d.trip_date)} · {[d.vehicle_plate, d.driver_name].filter(Boolean).join(' · ') || '—'}
            </span>
            {d.counterparties.length > 0 && <span className="muted">{d.counterparties.map((p) => p.name).join(', ')}</span>}
            <Outcome d={d} />
          </RowCard>
        )}
      />
    </Page>
  );
}
