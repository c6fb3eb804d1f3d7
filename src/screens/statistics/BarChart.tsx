/**
 * A horizontal bar chart drawn with plain elements: one row per item, longest first, the bar's length
 * proportional to the value, the figure beside it. One chart on one screen does not pay for a charting
 * library; this stays crisp at 360 px and at 1920 px, and reads to a screen reader as a list.
 */
export interface Bar {
  key: string | number;
  label: string;
  value: number;
  /** A second figure shown under the label (e.g. the volume). */
  note?: string;
}

export function BarChart({ label, bars, format }: { label: string; bars: readonly Bar[]; format: (value: number) => string }) {
  const sorted = [...bars].sort((a, b) => b.value - a.value);
  const max = Math.max(...sorted.map((b) => b.value), 0);
  return (
    <ul className="bar-chart" aria-label={label}>
      {sorted.map((b) => {
        const share = max > 0 ? (b.value / max) * 100 : 0;
        return (
          <li key={b.key} className="bar-chart-row">
            <span className="bar-chart-label">
              {b.label}
              {b.note && <span className="muted"> · {b.note}</span>}
            </span>
            <span className="bar-chart-track" aria-hidden="true">
              <span className="bar-chart-bar" style={{ width: `${Math.max(share, 0.5)}%` }} />
            </span>
            <span className="bar-chart-value">{format(b.value)}</span>
          </li>
        );
      })}
    </ul>
  );
}
