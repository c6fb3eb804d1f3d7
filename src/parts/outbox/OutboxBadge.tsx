/** The header badge: how many reports are not yet on the server; opens the outbox panel. */
import { useState } from 'react';
import { useEngineSnapshot } from '../../engine/store.ts';
import { OutboxPanel } from './OutboxPanel.tsx';
import { outboxQueueLabel } from './outbox-labels.ts';
import '../driver/driver.css';
import './outbox.css';

export function OutboxBadge() {
  const { pending, flushing, undelivered = 0 } = useEngineSnapshot().outbox;
  const [open, setOpen] = useState(false);
  const label = outboxQueueLabel(pending, undelivered);
  return (
    <>
      <button
        type="button"
        className={`drv-outbox-badge${flushing ? ' drv-outbox-badge--busy' : ''}`}
        aria-label={label}
        title={label}
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M12 3 7 8h3v6h4V8h3l-5-5Zm-8 13v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4h-2v3H6v-3H4Z"
          />
        </svg>
        {pending > 0 ? <span className="drv-outbox-badge__count">{pending > 99 ? '99+' : pending}</span> : null}
        {pending === 0 && undelivered > 0 ? <span className="drv-outbox-badge__count drv-outbox-badge__count--alert">!</span> : null}
      </button>
      {open ? <OutboxPanel onClose={() => setOpen(false)} /> : null}
    </>
  );
}
