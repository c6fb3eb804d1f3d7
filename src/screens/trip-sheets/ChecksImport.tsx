/**
 * «Журнал осмотров» on /trip-sheets (docs/trip-sheets.md «The medic's and the mechanic's lists»): the medic's or the
 * mechanic's list — a CSV from their journal, in UTF-8 or a Russian Excel's windows-1251 — sent to
 * POST /trip-sheets/checks for the day shown; how many marks were made, and each row refused with why.
 */
import { useState } from 'react';
import { useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { showToast } from '../../ui/toasts.ts';
import { CHECK_KIND_LABELS, CHECK_KINDS, decodeList, type CheckImportResult, type CheckKind } from '../../../contract/trip-sheet-checks.ts';

export function ChecksImport({ date, companyId }: { date: string; companyId: number | null }) {
  const [kind, setKind] = useState<CheckKind>('pre_medical');
  const [result, setResult] = useState<CheckImportResult | null>(null);
  const send = useSend('POST /trip-sheets/checks');

  async function upload(file: File) {
    setResult(null);
    try {
      const text = decodeList(new Uint8Array(await file.arrayBuffer()));
      const answer = await send.mutateAsync({
        body: { kind, text, date, offset_minutes: -new Date().getTimezoneOffset() },
        ...(companyId === null ? {} : { query: { company_id: companyId } }),
      });
      setResult(answer);
      showToast(answer.recorded > 0 ? 'success' : 'info', `Отмечено по списку: ${answer.recorded} из ${answer.outcomes.length}`);
    } catch (error) {
      showToast('error', failureMessage(error));
    }
  }

  const refused = result?.outcomes.filter((o) => o.outcome === 'refused') ?? [];
  return (
    <details className="sheet-checks-import">
      <summary>Журнал осмотров</summary>
      <div className="sheet-checks-import__body">
        <label>
          Что в списке
          <select value={kind} onChange={(e) => setKind(e.target.value as CheckKind)}>
            {CHECK_KINDS.map((k) => (
              <option key={k} value={k}>
                {CHECK_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Файл списка (CSV: дата, время, водитель или госномер, результат, кто провёл)
          <input
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            disabled={send.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void upload(file);
            }}
          />
        </label>
        {result && refused.length > 0 && (
          <ul className="sheet-checks-import__refused" aria-label="Строки списка без отметки">
            {refused.map((o) => (
              <li key={o.line}>
                Строка {o.line}
                {o.sheet_number !== null ? ` (лист № ${o.sheet_number})` : ''}: {o.detail}
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
