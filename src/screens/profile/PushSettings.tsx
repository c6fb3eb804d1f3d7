/** /profile: push notifications on this device — on, off, or why they cannot be. */
import { useEffect, useState } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { disablePush, enablePush, pushState, type PushState } from '../../app/pwa/push.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { NeedsServerHint } from '../../ui/NeedsServerHint.tsx';

const STATE_TEXT: Record<PushState, string> = {
  on: 'Включены на этом устройстве: новые задачи, объявления и передачи придут уведомлением.',
  off: 'Выключены на этом устройстве.',
  denied: 'Браузер запретил уведомления для этого сайта: разрешите их в настройках сайта.',
  unsupported: 'Этот браузер не поддерживает уведомления (на iPhone — только в приложении, добавленном на экран «Домой»).',
};

export function PushSettings() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const server = useNeedsServer();

  useEffect(() => {
    void pushState().then(setState, () => setState('unsupported'));
  }, []);

  async function toggle(): Promise<void> {
    setBusy(true);
    try {
      const failure = state === 'on' ? await disablePush() : await enablePush();
      if (failure) showToast('error', failure);
      else showToast('success', state === 'on' ? 'Уведомления выключены' : 'Уведомления включены');
      setState(await pushState());
    } finally {
      setBusy(false);
    }
  }

  if (state === null) return null;
  return (
    <section className="card" aria-labelledby="push-title">
      <div className="card-head">
        <h2 id="push-title">Уведомления</h2>
      </div>
      <p>{STATE_TEXT[state]}</p>
      {state === 'on' || state === 'off' ? (
        <>
          <button type="button" className="button" disabled={busy || server.offline} title={server.reason} onClick={() => void toggle()}>
            {state === 'on' ? 'Выключить уведомления' : 'Включить уведомления'}
          </button>
          <NeedsServerHint offline={server.offline} what="изменить уведомления" />
        </>
      ) : null}
    </section>
  );
}
