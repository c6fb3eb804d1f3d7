/**
 * A driver's answer to an announcement that asks for one: a short text (optional — sending it empty means
 * "read and agree"), how it stands, and a change while it is still under review.
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { RESPONSE_STATUS_LABELS, type Announcement } from '../../../contract/announcements.ts';
import { useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { formatDateTime } from '../../ui/format.ts';
import { TextAreaField } from '../../ui/Field.tsx';
import { Form } from '../../ui/Form.tsx';

const STATUS_CLASS = { pending: 'status-in_progress', approved: 'status-completed', declined: 'status-cancelled' } as const;

export function ResponseForm({ announcement, offline, reason }: { announcement: Announcement; offline: boolean; reason: string | undefined }) {
  const mine = announcement.my_response;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(mine?.text ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Refetches the announcements when it settles (its own area on the route table).
  const respond = useSend('POST /announcements/:id/responses');

  async function send(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await respond.mutateAsync({ params: { id: announcement.id }, body: { text: text.trim() || null } });
      showToast('success', mine ? 'Ответ изменён' : 'Ответ отправлен');
      setEditing(false);
    } catch (e) {
      // The text stays as typed; the reason is shown under it.
      setError(failureMessage(e));
    } finally {
      setBusy(false);
    }
  }

  if (mine && !editing) {
    return (
      <div className="ann-response">
        <p>
          Ваш ответ: <span className={`status-badge ${STATUS_CLASS[mine.status]}`}>{RESPONSE_STATUS_LABELS[mine.status]}</span>
        </p>
        <p className="ann-body">{mine.text || <span className="muted">Без текста</span>}</p>
        <p className="muted ann-meta">
          Отправлен {formatDateTime(mine.created_at)}
          {mine.decided_at ? ` · рассмотрен ${formatDateTime(mine.decided_at)}` : ''}
        </p>
        {mine.status === 'pending' && (
          <button type="button" className="button button-small" disabled={offline} title={reason} onClick={() => setEditing(true)}>
            Изменить ответ
          </button>
        )}
      </div>
    );
  }

  return (
    <Form className="ann-response" onSubmit={send}>
      <TextAreaField
        label="Ваш ответ"
        rows={3}
        value={text}
        maxLength={2000}
        placeholder="Можно оставить пустым: это значит «прочитал, согласен»"
        error={error ?? undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="row-actions ann-actions">
        {editing && (
          <button type="button" className="button button-quiet" disabled={busy} onClick={() => setEditing(false)}>
            Отмена
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy || offline} title={reason}>
          {busy ? 'Отправляем…' : mine ? 'Сохранить ответ' : 'Ответить'}
        </button>
      </div>
    </Form>
  );
}
