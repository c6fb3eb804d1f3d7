/**
 * The other parties' titles on the trip's «Документы» panel (docs/documents.md «Received titles»): the upload of a
 * shipper's Т1 or a consignee's Т3 (with the operator's signature file and the waybill's УИД when at hand), and the
 * titles received, each with its differences from our facts — a warning the carrier reads before signing Т2.
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { IncomingTitle } from '../../../contract/calls/papers.ts';
import { invalidateAfter, sendFormOnce } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { showToast } from '../../ui/toasts.ts';

const WHOSE: Record<IncomingTitle['title'], string> = { t1: 'Т1 грузоотправителя', t3: 'Т3 грузополучателя' };
const LINKED_BY: Record<IncomingTitle['linked_by'], string> = { number: 'по номеру накладной', uid: 'по УИД ТрН', vehicle: 'по машине и дате' };

const dateText = (iso: string) => iso.split('-').reverse().join('.');

/** The signature file's bytes as base64 text (the form carries it as a field). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function Differences({ title }: { title: IncomingTitle }) {
  if (title.differences.length === 0) return <p className="muted">Расхождений с данными рейса нет.</p>;
  return (
    <div className="report-papers__warning" role="alert">
      <strong>
        Расхождения с данными рейса{title.title === 't1' ? ' — проверьте до подписания Т2' : ' — проверьте до подписания Т4'}:
      </strong>
      <ul>
        {title.differences.map((d) => (
          <li key={d.field}>
            {d.label}: у них — <b>{d.theirs ?? 'не указано'}</b>, у нас — <b>{d.ours ?? 'не указано'}</b>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ReportReceived({ reportId, received }: { reportId: number; received: IncomingTitle[] }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [uid, setUid] = useState('');
  const signature = useRef<HTMLInputElement>(null);
  const ids = useId();

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const sig = signature.current?.files?.[0];
      const fields: Record<string, string> = { name: file.name };
      if (uid.trim()) fields.uid = uid.trim();
      if (sig) fields.signature = await base64Of(sig);
      const title = await sendFormOnce('POST /etrn/incoming', { params: {}, fields, files: [file], fileField: 'file' });
      const where = title.report_id === reportId ? 'к этому рейсу' : `к рейсу № ${title.report_id}`;
      showToast('success', `${WHOSE[title.title]} загружен и привязан ${where}`);
      await invalidateAfter(client, 'POST', '/etrn/incoming');
    } catch (error) {
      setProblem(failureMessage(error));
    } finally {
      setBusy(false);
      input.value = '';
    }
  }

  return (
    <div className="report-papers__received">
      <div className="report-papers__upload">
        <label className="button button-small report-papers__file">
          {busy ? 'Загружаем…' : 'Загрузить титул грузоотправителя/грузополучателя'}
          <input type="file" accept=".xml,application/xml,text/xml" disabled={busy} onChange={(event) => void upload(event)} />
        </label>
        <details>
          <summary>Подпись и УИД ТрН</summary>
          <div className="report-papers__extra">
            <div className="field">
              <label htmlFor={`${ids}-sig`}>Файл подписи (.sig) от оператора</label>
              <input id={`${ids}-sig`} ref={signature} type="file" accept=".sig,.p7s,.sgn,.bin,.txt" />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-uid`}>УИД ТрН (для Т1)</label>
              <input id={`${ids}-uid`} value={uid} maxLength={1000} onChange={(event) => setUid(event.target.value)} />
            </div>
          </div>
        </details>
      </div>
      {problem && (
        <p className="report-papers__problem" role="alert">
          {problem}
        </p>
      )}
      {received.length > 0 && (
        <ul className="report-papers__titles" aria-label="Полученные титулы">
          {received.map((t) => (
            <li key={t.id}>
              <div className="report-papers__head">
                <strong>{WHOSE[t.title]}</strong>
                <span className="muted">
                  {t.file_name}, от {dateText(t.file_date)} {t.file_time}, привязан {LINKED_BY[t.linked_by]}
                </span>
                {!t.signed && <span className="status-badge status-cancelled">Без файла подписи</span>}
              </div>
              <Differences title={t} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
