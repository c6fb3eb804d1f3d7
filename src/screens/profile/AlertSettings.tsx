/**
 * /profile, staff: which events the console alerts about, and how (docs/alerts.md) — a toast in one tab always for
 * the chosen events; a short sound; a system notification while the console is in the background (the browser asks
 * for permission when it is turned on). Saved on the server for the user (PUT /users/me/alerts).
 */
import { useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { ALERT_KINDS, ALERT_LABELS, DEFAULT_ALERT_SETTINGS, type AlertKind, type AlertSettings as Settings } from '../../../contract/alerts.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';
import { Form } from '../../ui/Form.tsx';

export function AlertSettings() {
  const query = useGet('GET /users/me/alerts');
  const stored = query.data?.data ?? null;
  return (
    <section className="card" aria-labelledby="alerts-title">
      <div className="card-head">
        <h2 id="alerts-title">Оповещения в консоли</h2>
      </div>
      <p className="muted">Сообщение появляется в одной вкладке — той, где вы работали последней, — а счётчик у пункта меню растёт во всех.</p>
      {query.isError && <p role="alert">Не удалось загрузить настройки: {query.error.message}</p>}
      {/* The form starts from what the server holds (the defaults until it answers) and again when that changes. */}
      <AlertSettingsForm key={JSON.stringify(stored)} stored={stored ?? DEFAULT_ALERT_SETTINGS} loading={query.isPending} />
    </section>
  );
}

function AlertSettingsForm({ stored, loading }: { stored: Settings; loading: boolean }) {
  const save = useSend('PUT /users/me/alerts');
  const server = useNeedsServer();
  const [draft, setDraft] = useState<Settings>(stored);

  function toggleKind(kind: AlertKind, on: boolean): void {
    setDraft((d) => ({ ...d, kinds: on ? ALERT_KINDS.filter((k) => k === kind || d.kinds.includes(k)) : d.kinds.filter((k) => k !== kind) }));
  }

  async function setNotify(on: boolean): Promise<void> {
    if (on && 'Notification' in window && Notification.permission !== 'granted') {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        showToast('error', 'Браузер не разрешил уведомления: разрешите их в настройках сайта.');
        return;
      }
    }
    setDraft((d) => ({ ...d, notify: on }));
  }

  async function submit(): Promise<void> {
    try {
      await save.mutateAsync({ body: draft });
      showToast('success', 'Настройки оповещений сохранены');
    } catch (error) {
      showToast('error', `Не сохранено: ${(error as Error).message}`);
    }
  }

  const unsupported = !('Notification' in window);
  return (
    <Form onSubmit={submit}>
      <fieldset className="alert-kinds">
        <legend>О чём сообщать</legend>
        {ALERT_KINDS.map((kind) => (
          <label key={kind} className="field-check">
            <input type="checkbox" checked={draft.kinds.includes(kind)} onChange={(event) => toggleKind(kind, event.target.checked)} />
            {ALERT_LABELS[kind]}
          </label>
        ))}
      </fieldset>
      <label className="field-check">
        <input type="checkbox" checked={draft.sound} onChange={(event) => setDraft((d) => ({ ...d, sound: event.target.checked }))} />
        Короткий звук
      </label>
      <label className="field-check">
        <input type="checkbox" checked={draft.notify} disabled={unsupported} onChange={(event) => void setNotify(event.target.checked)} />
        Системное уведомление, когда консоль в фоне{unsupported ? ' (этот браузер не умеет)' : ''}
      </label>
      <button type="submit" className="button" disabled={save.isPending || server.offline || loading} title={server.reason}>
        {save.isPending ? 'Сохраняем...' : 'Сохранить оповещения'}
      </button>
      <NeedsServerHint offline={server.offline} what="изменить оповещения" />
    </Form>
  );
}
