/**
 * Delivered of a share or a plan, as the server computed it (docs/loads.md): «3 рейса · 62,5 из 75 т» and a bar.
 * A shortfall is said in words and the bar stays partial: a completed task short of plan never shows full.
 */
import { formatQuantity, formatTrips } from './format.ts';
import './load-progress.css';

interface Props {
  delivered: number;
  of: number;
  unit: string;
  trips?: number | undefined;
  /** A completed task's or part's undelivered quantity, when it fell short. */
  shortfall?: number | null | undefined;
  /** What the figure is of, for screen readers: «Ваша доля», «План задачи». */
  label: string;
  compact?: boolean;
}

export function LoadProgress({ delivered, of, unit, trips, shortfall, label, compact = false }: Props) {
  const share = of > 0 ? Math.min(1, delivered / of) : delivered > 0 ? 1 : 0;
  const text = `${trips !== undefined ? `${formatTrips(trips)} · ` : ''}${formatQuantity(delivered)} из ${formatQuantity(of, unit)}`;
  const state = shortfall ? 'short' : delivered > of * 1.1 && of > 0 ? 'over' : share >= 1 ? 'done' : 'going';
  return (
    <div className={`load-progress load-progress--${state}${compact ? ' load-progress--compact' : ''}`}>
      <span className="load-progress__text">
        {text}
        {shortfall ? <span className="load-progress__short"> · не довезено {formatQuantity(shortfall, unit)}</span> : null}
      </span>
      <span
        className="load-progress__bar"
        role="progressbar"
        aria-label={`${label}: ${text}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
      >
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
    </div>
  );
}
