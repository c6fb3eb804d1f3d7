/**
 * The receiver signs with a finger (issue 32): `signature_pad` draws smooth strokes on a canvas; the owner reads
 * the picture (PNG) and the strokes (points with their times) when the form is sent.
 */
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';

export type Strokes = [number, number, number][][];

export interface SignatureHandle {
  isEmpty(): boolean;
  /** The drawn signature as PNG, or null when nothing is drawn. */
  png(): Promise<Blob | null>;
  /** The strokes: [x, y, ms since the pad opened] per point, in CSS pixels. */
  strokes(): Strokes;
}

export const SignatureField = forwardRef<SignatureHandle, { invalid?: boolean; onChange?: (empty: boolean) => void }>(function SignatureField(
  { invalid, onChange },
  ref,
) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const openedAt = useRef(Date.now());
  const [empty, setEmpty] = useState(true);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: '#111', backgroundColor: 'rgb(255,255,255)', minWidth: 0.8, maxWidth: 2.6 });
    padRef.current = pad;
    // The canvas's pixels follow its size on screen and the screen's density, else the lines blur or shift.
    const fit = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const data = pad.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      pad.fromData(data);
    };
    fit();
    const ended = () => {
      setEmpty(pad.isEmpty());
      onChangeRef.current?.(pad.isEmpty());
    };
    pad.addEventListener('endStroke', ended);
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      pad.removeEventListener('endStroke', ended);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useImperativeHandle(ref, () => ({
    isEmpty: () => padRef.current?.isEmpty() ?? true,
    async png() {
      const pad = padRef.current;
      const canvas = canvasRef.current;
      if (!pad || !canvas || pad.isEmpty()) return null;
      return new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    },
    strokes: () =>
      (padRef.current?.toData() ?? []).map((group) =>
        group.points.map((p): [number, number, number] => [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10, Math.max(0, p.time - openedAt.current)]),
      ),
  }));

  function clear() {
    padRef.current?.clear();
    setEmpty(true);
    onChange?.(true);
  }

  return (
    <div className="drv-signature">
      <canvas
        ref={canvasRef}
        className={`drv-signature__pad${invalid ? ' drv-signature__pad--invalid' : ''}`}
        role="img"
        aria-label={empty ? 'Поле для подписи: распишитесь пальцем' : 'Подпись получателя'}
      />
      <div className="drv-signature__bar">
        <span className="drv-field__hint">{empty ? 'Распишитесь пальцем в рамке' : 'Подпись есть'}</span>
        <button type="button" className="drv-btn drv-btn--ghost drv-btn--small" onClick={clear} disabled={empty}>
          Очистить
        </button>
      </div>
    </div>
  );
});
