/** The bar that offers a new version once its service worker waits (or already took over in another tab). */
import { useState, type CSSProperties } from 'react';
import { useSnapshot } from 'valtio';
import { applyUpdate, pwaState } from './register.ts';

const barStyle: CSSProperties = {
  position: 'fixed',
  right: 'max(12px, env(safe-area-inset-right))',
  bottom: 'max(12px, env(safe-area-inset-bottom))',
  left: 'auto',
  zIndex: 10000,
  display: 'flex',
  alignItems: 'center',
  gap: 12,
  maxWidth: 'calc(100vw - 24px)',
  padding: '10px 12px 10px 16px',
  borderRadius: 8,
  background: '#1f4e79',
  color: '#fff',
  boxShadow: '0 4px 16px rgba(0, 0, 0, 0.25)',
  font: 'inherit',
};

const buttonStyle: CSSProperties = {
  padding: '6px 14px',
  border: 0,
  borderRadius: 6,
  background: '#fff',
  color: '#1f4e79',
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
};

export function UpdatePrompt() {
  const { updateReady } = useSnapshot(pwaState);
  const [updating, setUpdating] = useState(false);
  if (!updateReady) return null;
  return (
    <div role="status" aria-live="polite" style={barStyle}>
      <span>Доступна новая версия</span>
      <button
        type="button"
        style={buttonStyle}
        disabled={updating}
        onClick={() => {
          setUpdating(true);
          applyUpdate();
        }}
      >
        Обновить
      </button>
    </div>
  );
}
