/**
 * The trip's «Документы» panel on /reports/{id} (issues 32, 33; docs/documents.md): the proof of delivery and the
 * paper waybill as PDF (and every trip's of its task in one PDF), and the ЭТрН titles the carrier makes — each ready to
 * download as XML, or with exactly what it lacks and a link to the card that holds it. Nothing is offered half-filled.
 * Above them, the other parties' titles received, with their differences from our facts (ReportReceived).
 */
import { useState } from 'react';
import { Link } from 'wouter';
import type { DocumentTitle, ReportDocuments, TitleExchange } from '../../../contract/calls/papers.ts';
import { DOCUMENT_STATE_LABELS, type DocumentState } from '../../../contract/waybill.ts';
import { CONFIRM_TEXT, type DriverConfirmation } from '../../../contract/trips.ts';
import { formatDateTime } from '../../ui/format.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { downloadOnce } from '../../engine/once.ts';
import { failureMessage } from '../../engine/send.ts';
import { saveDownload } from '../../ui/download.ts';
import { Loaded } from '../../ui/states.tsx';
import { showToast } from '../../ui/toasts.ts';
import { ReportReceived } from './ReportReceived.tsx';
import { saveTaskWaybills } from './waybills.ts';
import type { NavPath } from '../../app/nav.ts';
import '../../ui/status-badge.css';
import './reports.css';

/** The driver's confirmations by his ПЭП: he signs the Т2 / Т4 he confirmed (docs/documents.md «The driver's confirmation»). */
function DriverConfirmed({ confirmed }: { confirmed: readonly DriverConfirmation[] }) {
  if (confirmed.length === 0) return null;
  return (
    <ul className="report-papers__confirmed" aria-label="Подтверждения водителя">
      {confirmed.map((c) => (
        <li key={c.step}>
          Водитель подтвердил простой электронной подписью «{CONFIRM_TEXT[c.step]}» ({c.step === 'loading_departed' ? 'Т2' : 'Т4'}): {c.driver_name},{' '}
          {formatDateTime(c.at)}
          {c.remarks ? <span className="muted"> · замечания: {c.remarks}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** Where a missing fact is filled in: a screen of the app (typed, so a path that is no screen does not compile). */
function cardLink(m: DocumentTitle['missing'][number]): { href: NavPath; label: string } | null {
  switch (m.card) {
    case 'counterparty':
      return { href: '/counterparties', label: 'Контрагенты' };
    case 'company':
      return { href: '/companies/manage', label: 'Реквизиты компании' };
    case 'place':
      return { href: '/places', label: 'Места' };
    case 'vehicle':
      return { href: '/vehicles', label: 'Транспорт' };
    case 'driver':
      return { href: '/drivers/manage', label: 'Водители' };
    default:
      return null;
  }
}

/** The badge's colour by the document's state: in work blue, accepted green, rejected red, draft and annulled plain. */
const STATE_BADGE: Record<DocumentState, string> = {
  draft: '',
  ready: 'status-open',
  sent: 'status-open',
  accepted: 'status-completed',
  rejected: 'status-cancelled',
  annulled: '',
};

/** Where the title stands with the operator: the state and, by it, the УИД ТрН or the reason and the fix it needs. */
function ExchangeLine({ exchange }: { exchange: TitleExchange }) {
  return (
    <p className="report-papers__exchange">
      <span className={`status-badge ${STATE_BADGE[exchange.state]}`}>{DOCUMENT_STATE_LABELS[exchange.state]}</span>
      {exchange.state === 'accepted' && exchange.uid && <span>УИД ТрН {exchange.uid}</span>}
      {exchange.state === 'rejected' && exchange.reason && (
        <span>
          {exchange.reason}
          {exchange.fix && ` — ${exchange.fix}`}
        </span>
      )}
      <Link href="/documents">В «Документах»</Link>
    </p>
  );
}

/** `taskId`: the trip's task, whose every trip's waybill one button puts in one PDF. */
export function ReportPapers({ reportId, taskId }: { reportId: number; taskId: number }) {
  const query = useGet('GET /reports/:id/documents', { id: reportId });
  const [busy, setBusy] = useState<string | null>(null);
  const takeIn = useSend('POST /documents/');

  /** The title taken into the exchange as a draft (the «Документы» screen carries it on); a 409 names the live one. */
  async function toExchange(title: DocumentTitle['title']) {
    setBusy(`take-${title}`);
    try {
      await takeIn.mutateAsync({ body: { report_id: reportId, title } });
      showToast('success', 'Черновик добавлен в «Документы»');
    } catch (error) {
      showToast('error', failureMessage(error));
    } finally {
      setBusy(null);
    }
  }

  async function download(what: string, fetchFile: () => Promise<{ blob: Blob; filename: string } | null>) {
    setBusy(what);
    try {
      const file = await fetchFile();
      if (file) saveDownload(file.blob, file.filename);
    } catch (error) {
      showToast('error', failureMessage(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card report-papers" aria-labelledby={`papers-${reportId}`}>
      <h2 id={`papers-${reportId}`} className="staff-h2">
        Документы
      </h2>
      <div className="row-actions">
        <button type="button" className="button button-small" disabled={busy !== null} onClick={() => void download('pod', () => downloadOnce('GET /reports/:id/pod.pdf', { id: reportId }))}>
          {busy === 'pod' ? 'Готовим…' : 'Подтверждение доставки (PDF)'}
        </button>
        <button type="button" className="button button-small" disabled={busy !== null} onClick={() => void download('waybill', () => downloadOnce('GET /reports/:id/waybill.pdf', { id: reportId }))}>
          {busy === 'waybill' ? 'Готовим…' : 'Транспортная накладная (PDF)'}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={busy !== null}
          onClick={() => {
            setBusy('task');
            void saveTaskWaybills(taskId).finally(() => setBusy(null));
          }}
        >
          {busy === 'task' ? 'Готовим…' : `Накладные всех рейсов задачи №${taskId} (PDF)`}
        </button>
      </div>
      <Loaded query={query} loading="Проверяем сведения для ЭТрН…">
        {(docs: ReportDocuments) => (
          <>
            <p className="muted">Электронная транспортная накладная № {docs.waybill_number}: титулы, которые готовит перевозчик.</p>
            <ReportReceived reportId={reportId} received={docs.received} />
            <DriverConfirmed confirmed={docs.driver_confirmed} />
            <ul className="report-papers__titles">
              {docs.titles.map((t) => (
                <li key={t.title}>
                  <div className="report-papers__head">
                    <strong>{t.name}</strong> <span className="muted">({t.whose})</span>
                    {t.ready ? (
                      <button
                        type="button"
                        className="button button-small button-primary"
                        disabled={busy !== null}
                        onClick={() => void download(t.title, () => downloadOnce('GET /reports/:id/etrn/:file', { id: reportId, file: `${t.title}.xml` }))}
                      >
                        {busy === t.title ? 'Готовим…' : 'Скачать XML'}
                      </button>
                    ) : (
                      <span className="status-badge status-cancelled">Не хватает сведений</span>
                    )}
                    {!t.exchange && (
                      <button type="button" className="button button-small" disabled={busy !== null} onClick={() => void toExchange(t.title)}>
                        {busy === `take-${t.title}` ? 'Добавляем…' : 'В «Документы»'}
                      </button>
                    )}
                  </div>
                  {t.exchange && <ExchangeLine exchange={t.exchange} />}
                  {!t.ready && (
                    <ul className="report-papers__missing" aria-label={`Не хватает для ${t.name}`}>
                      {t.missing.map((m) => {
                        const link = cardLink(m);
                        return (
                          <li key={m.field}>
                            {m.text}
                            {link && (
                              <>
                                {' — '}
                                <Link href={link.href}>{link.label}</Link>
                              </>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </Loaded>
    </section>
  );
}
