/**
 * On /reports/{id}: what the customer disputed through his link (docs/customer-link.md) — «Оспорено заказчиком» with
 * the reason — and the dispatcher's answer, which the customer reads on his page; answering clears the flag.
 */
import { useState } from 'react';
import type { CustomerDispute } from '../../../contract/customer-links.ts';
import { useSend } from '../../engine/api.ts';
import { formatDateTime } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';

export function CustomerDisputes({ disputes, offline }: { disputes: readonly CustomerDispute[]; offline: boolean }) {
  if (disputes.length === 0) return null;
  return (
    <section className="card report-disputes" aria-labelledby="report-disputes">
      <h2 id="report-disputes">Оспорено заказчиком</h2>
      <ul>
        {disputes.map((d) => (
          <li key={d.id}>
            <p>
              <strong>{formatDateTime(d.created_at)}:</strong> {d.reason}
            </p>
            {d.answer ? (
              <p className="muted">
                Ответ {d.answered_by_name ?? ''} {formatDateTime(d.answered_at)}: {d.answer}
              </p>
            ) : (
              <AnswerForm dispute={d} offline={offline} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AnswerForm({ dispute, offline }: { dispute: CustomerDispute; offline: boolean }) {
  const send = useSend('POST /customer-links/disputes/:id/answer');
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="report-dispute-answer"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        send.mutateAsync({ params: { id: dispute.id }, body: { answer } }).then(
          () => showToast('success', 'Ответ отправлен заказчику'),
          (failure: unknown) => setError(failure instanceof Error ? failure.message : 'Ответ не отправился'),
        );
      }}
    >
      <label>
        Ответ заказчику
        <textarea value={answer} onChange={(e) => setAnswer(e.target.value)} rows={3} maxLength={1000} required />
      </label>
      {error && <p className="form-error" role="alert">{error}</p>}
      <button type="submit" className="button button-primary button-small" disabled={offline || send.isPending}>
        Ответить заказчику
      </button>
    </form>
  );
}
